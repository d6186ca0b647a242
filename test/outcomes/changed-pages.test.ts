import { changedPages } from '../../src/outcomes/changed-pages.js';

const edit = (command: string, path: string, ok = true) => ({ tool: 'str_replace_based_edit_tool', command, path, ok });

describe('changedPages', () => {
  const site = ['docs/index.mdx', 'docs/guides/setup.md', 'docs/guides/renamed.mdx', 'docs/new.mdx'];

  it('maps the files a run wrote, moved and deleted to the paths the site serves them at', () => {
    expect(
      changedPages(
        [
          edit('view', 'docs/index.mdx'),
          edit('str_replace', 'docs/guides/setup.md'),
          edit('insert', 'docs/guides/setup.md'),
          edit('create', 'docs/new.mdx'),
          { tool: 'move_file', path: 'docs/guides/old.mdx -> docs/guides/renamed.mdx', ok: true },
          { tool: 'delete_file', path: 'docs/guides/gone/index.md', ok: true },
          edit('str_replace', 'docs/docs.json'),
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

  it('ignores failed calls, and a page added then deleted (or moved) in one run is what it became', () => {
    expect(
      changedPages(
        [
          edit('str_replace', 'docs/guides/setup.md', false),
          edit('create', 'docs/tmp.mdx'),
          { tool: 'delete_file', path: 'docs/tmp.mdx', ok: true },
          edit('create', 'docs/draft.mdx'),
          { tool: 'move_file', path: 'docs/draft.mdx -> docs/new.mdx', ok: true },
          { tool: 'move_file', path: 'docs/a.mdx -> docs/b.mdx', ok: true },
          { tool: 'move_file', path: 'docs/b.mdx -> docs/guides/renamed.mdx', ok: true },
        ],
        site,
      ),
    ).toEqual([
      { path: '/guides/renamed', change: 'moved', from: '/a' },
      { path: '/new', change: 'added' },
    ]);
  });

  it('reads pages at the repository root when the site has no shared docs folder', () => {
    expect(changedPages([edit('str_replace', 'guides/README.md')], ['index.md', 'guides/README.md'])).toEqual([
      { path: '/guides', change: 'edited' },
    ]);
  });
});
