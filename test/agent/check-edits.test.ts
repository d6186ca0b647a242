import fs from 'node:fs/promises';
import path from 'node:path';
import { checkEdits } from '../../src/agent/check-edits.js';
import { importCandidates, linkCandidates } from '../../src/agent/link-candidates.js';
import { mintlifyNavigationPages, mkdocsNavigationPages, mkdocsDocsDir } from '../../src/agent/navigation-pages.js';
import { parsePage } from '../../src/agent/parse-page.js';
import { makeWorkspace } from '../support/agent-harness.js';

describe('parsePage', () => {
  it('collects Markdown, image, reference, JSX and HTML links with their lines', async () => {
    const mdx =
      '---\ntitle: "A {weird} <title>"\n---\n\n# Page\n\nSee [setup](./setup.md) and ![logo](/images/logo.png).\n\n<Card title="Go" href="/quickstart">Go</Card>\n\n[ref]: ../other.mdx\n';
    expect(await parsePage(mdx, 'mdx')).toEqual({
      links: [
        { url: './setup.md', line: 7 },
        { url: '/images/logo.png', line: 7 },
        { url: '/quickstart', line: 9 },
        { url: '../other.mdx', line: 11 },
      ],
      imports: [],
    });
    const md = 'Text <a href="guide.html">guide</a>.\n\n<img src="pic.png">\n';
    expect((await parsePage(md, 'md')).links.map((l) => l.url)).toEqual(['guide.html', 'pic.png']);
  });

  it('reports MDX that no longer compiles, with the line', async () => {
    expect((await parsePage('# A\n\n<Card href="/x">\n\nunclosed\n', 'mdx')).error).toMatch(
      /^line 3: Expected a closing tag for `<Card>`/,
    );
    expect((await parsePage('# A\n\nbraces { here\n', 'mdx')).error).toMatch(/^line 3: .*closing brace/);
    // The same text is fine as plain Markdown.
    expect((await parsePage('# A\n\nbraces { here\n', 'md')).error).toBeUndefined();
  });

  it('reads frontmatter with a YAML parser: unclosed frontmatter, stray lines and unclosed quotes are errors', async () => {
    expect((await parsePage('---\ntitle: A\n\n# Body\n', 'md')).error).toContain(
      'frontmatter opened by --- on line 1 is never closed',
    );
    expect((await parsePage('---\ntitle: A\nthis is not yaml\n---\n', 'md')).error).toBe(
      'the frontmatter is not valid YAML (line 3): Implicit map keys need to be followed by map values',
    );
    expect((await parsePage('---\ntitle: "Unclosed\ndescription: x\n---\n', 'mdx')).error).toMatch(
      /^the frontmatter is not valid YAML \(line 3\): Missing closing "quote/,
    );
    // Lists, nested maps and colons inside quotes are fine.
    expect(
      (await parsePage('---\ntitle: "A: b"\ntags:\n  - x\nog:\n  image: /a.png\n---\n# A\n', 'mdx')).error,
    ).toBeUndefined();
  });

  it('accepts a code block left open at the end of the page, as CommonMark and the platforms do', async () => {
    expect(await parsePage('# A\n\n[a](/a)\n\n```js\nconst a = 1;\n[b](/b)\n', 'mdx')).toEqual({
      links: [{ url: '/a', line: 3 }],
      imports: [],
    });
    expect((await parsePage('# A\n\n````md\n```js\n```\n````\n', 'md')).error).toBeUndefined();
  });

  it('takes ## Heading {#custom-id} where the site does (Mintlify, Docusaurus), and not elsewhere', async () => {
    const mdx = '# Page\n\n## Setup {#setup}\n\n```md\n## Kept {#as-is}\n```\n';
    expect(await parsePage(mdx, 'mdx', { headingIds: true })).toEqual({ links: [], imports: [] });
    expect((await parsePage(mdx, 'mdx')).error).toMatch(/^line 3: /);
  });

  it('lists imports with their lines', async () => {
    const mdx =
      "import Note from '/snippets/note.mdx';\nimport { Tip,\n  Card } from '../snippets/cards.jsx';\n\n# Page\n\n<Note />\n";
    expect(await parsePage(mdx, 'mdx')).toEqual({
      links: [],
      imports: [
        { url: '/snippets/note.mdx', line: 1 },
        { url: '../snippets/cards.jsx', line: 2 },
      ],
    });
  });
});

describe('navigation and link resolution', () => {
  it('reads Mintlify navigation at any depth and MkDocs nav entries', () => {
    const docsJson = {
      navigation: {
        tabs: [
          { tab: 'Guides', groups: [{ group: 'A', pages: ['intro', { group: 'Nested', pages: ['nested/page'] }] }] },
        ],
        global: { anchors: [{ anchor: 'Blog', href: 'https://x' }] },
      },
    };
    expect(mintlifyNavigationPages(docsJson)).toEqual(['intro', 'nested/page']);
    expect(
      mintlifyNavigationPages({ navigation: [{ group: 'Old', pages: ['mint/page', 'https://example.com'] }] }),
    ).toEqual(['mint/page']);
    const yml =
      'site_name: X\ndocs_dir: site-docs\nnav:\n  - Home: index.md\n  - Guide:\n    - guide/setup.md\n    - "Deploy": \'guide/deploy.md\'\n  - External: https://example.com/a.md\ntheme: material\n';
    expect(mkdocsNavigationPages(yml)).toEqual(['index.md', 'guide/setup.md', 'guide/deploy.md']);
    expect(mkdocsDocsDir(yml)).toBe('site-docs');
    // Read as YAML: Python tags, flow lists and deeper nesting are fine.
    const tagged =
      'site_name: X\nnav: [index.md, {Guide: [{Deep: [{Deeper: guide/deep.md}]}]}]\nextra:\n  key: !ENV [KEY, x]\nplugins:\n  - emoji: !!python/name:material.extensions.emoji.to_svg\n';
    expect(mkdocsNavigationPages(tagged)).toEqual(['index.md', 'guide/deep.md']);
    expect(mkdocsDocsDir('site_name: X\n')).toBe('docs');
  });

  it('turns links into candidate files and skips external ones', () => {
    const layout = { framework: 'mintlify' as const, configPath: 'docs.json', docsRoot: '' };
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: 'https://x.dev', layout })).toBeUndefined();
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: '#anchor', layout })).toBeUndefined();
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: 'mailto:a@b.c', layout })).toBeUndefined();
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: './b.md#part', layout })).toEqual(['guides/b.md']);
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: '../setup', layout })).toEqual([
      'setup',
      'setup.mdx',
      'setup.md',
      'setup/index.mdx',
      'setup/index.md',
      'setup/README.md',
    ]);
    expect(linkCandidates({ fromFile: 'guides/a.mdx', url: '/images/x.png', layout })).toEqual([
      'images/x.png',
      'public/images/x.png',
      'static/images/x.png',
    ]);
  });

  it('turns imports into candidate files: /snippets from the docs root, relative paths, @site for Docusaurus; packages are skipped', () => {
    const mintlify = { framework: 'mintlify' as const, configPath: 'docs/docs.json', docsRoot: 'docs' };
    expect(
      importCandidates({ fromFile: 'docs/guides/a.mdx', specifier: '/snippets/note.mdx', layout: mintlify }),
    ).toEqual(['docs/snippets/note.mdx']);
    expect(
      importCandidates({ fromFile: 'docs/guides/a.mdx', specifier: '../snippets/card.jsx', layout: mintlify }),
    ).toEqual(['docs/snippets/card.jsx']);
    expect(importCandidates({ fromFile: 'docs/guides/a.mdx', specifier: 'react', layout: mintlify })).toBeUndefined();
    const docusaurus = {
      framework: 'docusaurus' as const,
      configPath: 'website/docusaurus.config.ts',
      docsRoot: 'website/docs',
    };
    expect(
      importCandidates({ fromFile: 'website/docs/a.mdx', specifier: '@site/src/components/Demo', layout: docusaurus }),
    ).toContain('website/src/components/Demo.tsx');
    expect(
      importCandidates({ fromFile: 'website/docs/a.mdx', specifier: '@theme/Tabs', layout: docusaurus }),
    ).toBeUndefined();
  });
});

describe('checkEdits', () => {
  const DOCS_JSON = JSON.stringify({
    navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'legacy/gone'] }] },
  });
  const FILES = {
    'docs.json': DOCS_JSON,
    'index.mdx': '# Home\n\nStart with [setup](/guides/setup) or [old](/never-existed).\n',
    'guides/setup.mdx': '# Setup\n\nBack [home](../index.mdx).\n',
    'guides/other.md': 'See [setup](./setup.mdx) and [broken](./already-broken.md).\n',
    'images/logo.png': 'png',
  };

  async function withChanges(change: (dir: string) => Promise<Map<string, string | null>>): Promise<string[]> {
    const ws = await makeWorkspace(FILES);
    try {
      return await checkEdits({ workspaceDir: ws.dir, originals: await change(ws.dir) });
    } finally {
      await ws.cleanup();
    }
  }
  const write = (dir: string, file: string, text: string) =>
    fs
      .mkdir(path.dirname(path.join(dir, file)), { recursive: true })
      .then(() => fs.writeFile(path.join(dir, file), text));

  it('passes clean edits and ignores problems the repository already had', async () => {
    const problems = await withChanges(async (dir) => {
      await write(
        dir,
        'index.mdx',
        `${FILES['index.mdx']}\nAlso see ![logo](/images/logo.png) and [other](guides/other).\n`,
      );
      await write(dir, 'guides/new.mdx', '# New\n\n[Setup](setup)\n');
      return new Map([
        ['index.mdx', FILES['index.mdx']],
        ['guides/new.mdx', null],
      ]);
    });
    expect(problems).toEqual([]);
  });

  it('reports a broken link the agent introduced', async () => {
    const problems = await withChanges(async (dir) => {
      await write(dir, 'guides/new.mdx', '# New\n\nSee [install](./install) for details.\n');
      return new Map([['guides/new.mdx', null]]);
    });
    expect(problems).toEqual(['guides/new.mdx:3: the link "./install" points at a file that does not exist.']);
  });

  it('reports pages that no longer parse, unless they were broken already', async () => {
    const problems = await withChanges(async (dir) => {
      await write(dir, 'guides/setup.mdx', '# Setup\n\n<Note>\nunclosed\n');
      await write(dir, 'broken.mdx', '<A>\n\nchanged but still broken\n');
      return new Map([
        ['guides/setup.mdx', FILES['guides/setup.mdx']],
        ['broken.mdx', '<A>\n\nbroken before\n'],
      ]);
    });
    expect(problems).toEqual([
      expect.stringMatching(/^guides\/setup\.mdx no longer parses as MDX: line 3: Expected a closing tag for `<Note>`/),
    ]);
  });

  it('reports navigation entries without a page and invalid docs.json, but not entries that were already missing', async () => {
    const added = await withChanges(async (dir) => {
      await write(dir, 'docs.json', DOCS_JSON.replace('"guides/setup"', '"guides/setup","guides/missing"'));
      return new Map([['docs.json', DOCS_JSON]]);
    });
    expect(added).toEqual([
      'docs.json: the navigation entry "guides/missing" has no page (expected guides/missing.mdx or guides/missing.md).',
    ]);
    const invalid = await withChanges(async (dir) => {
      await write(dir, 'docs.json', '{ "navigation": ');
      return new Map([['docs.json', DOCS_JSON]]);
    });
    expect(invalid).toEqual([expect.stringMatching(/^docs\.json is no longer valid JSON: /)]);
  });

  it('reports navigation entries and links elsewhere that pointed at a page the agent deleted or moved', async () => {
    const problems = await withChanges(async (dir) => {
      await fs.rename(path.join(dir, 'guides/setup.mdx'), path.join(dir, 'guides/install.mdx'));
      return new Map([
        ['guides/setup.mdx', FILES['guides/setup.mdx']],
        ['guides/install.mdx', null],
      ]);
    });
    expect(problems).toEqual([
      'docs.json: the navigation entry "guides/setup" has no page (expected guides/setup.mdx or guides/setup.md).',
      'index.mdx:3: the link "/guides/setup" points at guides/setup.mdx, which you deleted or moved.',
      'guides/other.md:1: the link "./setup.mdx" points at guides/setup.mdx, which you deleted or moved.',
    ]);
  });

  it('holds .md pages of a Mintlify site to MDX rules, since Mintlify compiles them as MDX', async () => {
    const problems = await withChanges(async (dir) => {
      await write(dir, 'guides/other.md', `${FILES['guides/other.md']}\nUse { to open a block.\n`);
      return new Map([['guides/other.md', FILES['guides/other.md']]]);
    });
    expect(problems).toEqual([expect.stringMatching(/^guides\/other\.md no longer parses as MDX: line 3: /)]);
  });

  it('checks MkDocs nav entries relative to docs_dir', async () => {
    const ws = await makeWorkspace({
      'mkdocs.yml': 'site_name: X\nnav:\n  - Home: index.md\n',
      'docs/index.md': '# Home\n',
    });
    try {
      const yml = 'site_name: X\nnav:\n  - Home: index.md\n  - New: new.md\n';
      await fs.writeFile(path.join(ws.dir, 'mkdocs.yml'), yml);
      const problems = await checkEdits({
        workspaceDir: ws.dir,
        originals: new Map([['mkdocs.yml', 'site_name: X\nnav:\n  - Home: index.md\n']]),
      });
      expect(problems).toEqual(['mkdocs.yml: the navigation entry "new.md" has no page (expected docs/new.md).']);
    } finally {
      await ws.cleanup();
    }
  });
});
