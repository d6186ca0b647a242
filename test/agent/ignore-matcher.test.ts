import { ignoreMatcher } from '../../src/agent/ignore-matcher.js';

describe('ignoreMatcher (gitignore syntax, as .mintignore uses it)', () => {
  it('matches names at any depth, anchored paths from the base, directories with everything below them', () => {
    const ignored = ignoreMatcher([
      '# drafts',
      'drafts/',
      '*.draft.mdx',
      '/internal/notes.md',
      'README.md',
      '',
      'api/*.yaml',
    ]);
    expect(
      [
        'drafts/a.mdx',
        'guides/drafts/b.mdx',
        'guides/x.draft.mdx',
        'internal/notes.md',
        'README.md',
        'guides/README.md',
        'api/spec.yaml',
      ].filter(ignored),
    ).toHaveLength(7);
    expect(
      ['drafts.mdx', 'guides/internal/notes.md', 'guides/x.mdx', 'api/v1/spec.yaml', 'README.mdx'].filter(ignored),
    ).toEqual([]);
  });

  it('lets a later ! pattern take a file back, and reads dot folders', () => {
    const ignored = ignoreMatcher(['*.md', '!keep.md', '.github/']);
    expect(ignored('a.md')).toBe(true);
    expect(ignored('docs/keep.md')).toBe(false);
    expect(ignored('.github/pull_request_template.md')).toBe(true);
    expect(ignored('guides/.github-notes.txt')).toBe(false);
  });
});
