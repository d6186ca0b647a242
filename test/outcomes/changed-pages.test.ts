import { changedPages } from '../../src/outcomes/changed-pages.js';

describe('changedPages', () => {
  const site = ['docs/index.mdx', 'docs/guides/setup.md', 'docs/guides/renamed.mdx', 'docs/new.mdx'];

  it("maps a pull request's added, modified, renamed and removed files to the paths the site serves them at", () => {
    expect(
      changedPages(
        [
          { filename: 'docs/guides/setup.md', status: 'modified' },
          { filename: 'docs/new.mdx', status: 'added' },
          { filename: 'docs/guides/renamed.mdx', status: 'renamed', previousFilename: 'docs/guides/old.mdx' },
          { filename: 'docs/guides/gone/index.md', status: 'removed' },
          { filename: 'docs/docs.json', status: 'modified' },
          { filename: 'docs/images/flow.png', status: 'added' },
        ],
        site,
      ),
    ).toEqual([
      { path: '/guides/gone', change: 'deleted' },
      { path: '/guides/renamed', change: 'moved', from: '/guides/old' },
      { path: '/guides/setup', change: 'edited' },
      { path: '/new', change: 'added' },
    ]);
  });

  it('reads a page renamed from a file that was no page as added, and one renamed in place as edited', () => {
    expect(
      changedPages(
        [
          { filename: 'docs/new.mdx', status: 'renamed', previousFilename: 'docs/new.txt' },
          { filename: 'docs/guides/renamed.mdx', status: 'renamed', previousFilename: 'docs/guides/renamed.md' },
          { filename: 'docs/index.mdx', status: 'unchanged' },
        ],
        site,
      ),
    ).toEqual([
      { path: '/guides/renamed', change: 'edited' },
      { path: '/new', change: 'added' },
    ]);
  });

  it('reads pages at the repository root when the site has no shared docs folder', () => {
    expect(
      changedPages([{ filename: 'guides/README.md', status: 'modified' }], ['index.md', 'guides/README.md']),
    ).toEqual([{ path: '/guides', change: 'edited' }]);
  });
});
