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

  it('reads the exact redirects a pull request added to its redirect files, except a moved page’s own', () => {
    const patch = (lines: string[]) => ['@@ -1,3 +1,9 @@', ' {', ...lines.map((l) => `+${l}`), ' }'].join('\n');
    expect(
      changedPages(
        [
          { filename: 'docs/guides/renamed.mdx', status: 'renamed', previousFilename: 'docs/guides/old.mdx' },
          {
            filename: 'docs/docs.json',
            status: 'modified',
            patch: patch([
              '  "redirects": [',
              '    { "source": "/guides/old", "destination": "/guides/renamed" },',
              '    {',
              '      "source": "/guides/legacy/",',
              '      "destination": "/guides/setup"',
              '    },',
              '    { "source": "/blog/:slug*", "destination": "/guides/:slug*" }',
              '  ]',
            ]),
          },
          {
            filename: 'static/_redirects',
            status: 'added',
            patch: '@@ -0,0 +1,2 @@\n+/start /guides/setup 301\n+# a note',
          },
          { filename: 'vercel.json', status: 'removed', patch: '@@ -1 +0,0 @@\n-{"redirects":[]}' },
        ],
        site,
      ),
    ).toEqual([
      { path: '/guides/renamed', change: 'moved', from: '/guides/old' },
      { path: '/guides/setup', change: 'redirected', from: '/guides/legacy' },
      { path: '/guides/setup', change: 'redirected', from: '/start' },
    ]);
  });

  it('reads pages at the repository root when the site has no shared docs folder', () => {
    expect(
      changedPages([{ filename: 'guides/README.md', status: 'modified' }], ['index.md', 'guides/README.md']),
    ).toEqual([{ path: '/guides', change: 'edited' }]);
  });
});
