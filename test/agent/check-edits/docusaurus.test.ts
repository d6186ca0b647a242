import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEdits } from '../../../src/agent/check-edits.js';
import { allFilesNew, editSession, type EditSession } from '../../support/edit-session.js';

/**
 * A small Docusaurus site: a sidebars.js naming doc ids (one set by frontmatter `id`, one behind a number
 * prefix), a doc with a `slug`, a blog, a page in src/pages, a component import, static images, and a
 * README the build never reads. The config has onBrokenLinks and onBrokenAnchors at 'throw'.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/docusaurus-site');

let site: EditSession;
beforeEach(async () => {
  site = await editSession(FIXTURE);
});
afterEach(() => site.cleanup());

describe('checkEdits on a Docusaurus site', () => {
  it('passes the site as it is, every file checked as if new', async () => {
    expect(await checkEdits({ workspaceDir: site.dir, originals: await allFilesNew(site.dir) })).toEqual([]);
  });

  it('resolves links by file and by URL (doc ids, slugs, pages, the blog), and reports the rest', async () => {
    await site.replace(
      'docs/guides/faq.md',
      'Yes.',
      'Yes. See [deploying](/docs/tutorial/deploy), [about](/about), [the FAQ](/docs/faq), [news](/blog/2024/01/01/welcome), [tagged](/docs/tags/setup), [search](/search) and [publishing](/docs/tutorial/publish).',
    );
    expect(await site.check()).toEqual([
      'docs/guides/faq.md:9: the link "/docs/tutorial/publish" points at a file that does not exist.',
    ]);
  });

  it('reports a broken anchor while onBrokenAnchors is "throw", and not once it is the default "warn"', async () => {
    await site.replace(
      'docs/intro.md',
      'The [FAQ](/docs/faq)',
      'The [FAQ](/docs/faq#can-i-use-mdx), [preview](./tutorial/01-create-a-page.md#preview-locally) and [hosting](/docs/tutorial/deploy#hosting)',
    );
    expect(await site.check()).toEqual([
      'docs/intro.md:8: the link "/docs/tutorial/deploy#hosting" points at a heading or anchor docs/tutorial/deploying.mdx does not have.',
    ]);
    await site.replace('docusaurus.config.js', "onBrokenAnchors: 'throw',", '');
    expect(await site.check()).toEqual([]);
  });

  it('leaves broken links alone when onBrokenLinks is not "throw"', async () => {
    await site.replace('docs/intro.md', '# Introduction', '# Introduction\n\nSee [the missing page](./missing.md).');
    expect(await site.check()).toEqual([
      'docs/intro.md:7: the link "./missing.md" points at a file that does not exist.',
    ]);
    await site.replace('docusaurus.config.js', "onBrokenLinks: 'throw'", "onBrokenLinks: 'warn'");
    expect(await site.check()).toEqual([]);
  });

  it('reports sidebar doc ids without a doc: a new one, and one whose doc the agent deleted, with the links to it', async () => {
    await site.replace('sidebars.js', "'tutorial/deploy']", "'tutorial/deploy', 'tutorial/publish']");
    await site.remove('docs/tutorial/deploying.mdx');
    expect(await site.check()).toEqual([
      'sidebars.js: the sidebar names the doc "tutorial/deploy", which was docs/tutorial/deploying.mdx: you deleted or moved it.',
      'sidebars.js: the sidebar names the doc "tutorial/publish", which does not exist.',
      'docs/intro.md:7: the link "/docs/tutorial/deploy#build-the-site" points at docs/tutorial/deploying.mdx, which you deleted or moved.',
    ]);
  });

  it('reports component imports that do not exist, and does not check files outside the docs, blog and pages', async () => {
    await site.replace(
      'docs/tutorial/deploying.mdx',
      "import Tip from '@site/src/components/Tip';",
      "import Tip from '@site/src/components/Tip';\nimport Demo from '@site/src/components/Demo';",
    );
    await site.replace('README.md', 'Pages live', 'Notes are in [notes](./notes.md). Pages live');
    expect(await site.check()).toEqual([
      'docs/tutorial/deploying.mdx:7: the import "@site/src/components/Demo" names a file that does not exist.',
    ]);
  });
});
