import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEdits } from '../../../src/agent/check-edits.js';
import { allFilesNew, editSession, type EditSession } from '../../support/edit-session.js';

/**
 * A small MkDocs (Material) site in strict mode with `validation: anchors: warn`, a nested nav, Python
 * YAML tags in the config, attr_list heading ids, an `exclude_docs` folder and a README outside docs/.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/mkdocs-site');

let site: EditSession;
beforeEach(async () => {
  site = await editSession(FIXTURE);
});
afterEach(() => site.cleanup());

describe('checkEdits on an MkDocs site', () => {
  it('passes the site as it is, every file checked as if new', async () => {
    expect(await checkEdits({ workspaceDir: site.dir, originals: await allFilesNew(site.dir) })).toEqual([]);
  });

  it('reports what MkDocs warns about (links to missing files, and anchors under validation.anchors: warn), not links it leaves alone', async () => {
    await site.replace(
      'docs/about.md',
      'Back [home](index.md).',
      'Back [home](index.md), to [setup](guide/setup.md#install), [the guide](guide/) or [the API](/api/index.md). See [FAQ](faq.md), [configure](guide/setup.md#configuration) and [top](#about).',
    );
    expect(await site.check()).toEqual([
      'docs/about.md:3: the link "faq.md" points at a file that does not exist.',
      'docs/about.md:3: the link "guide/setup.md#configuration" points at a heading or anchor docs/guide/setup.md does not have.',
    ]);
    await site.replace('mkdocs.yml', 'validation:\n  anchors: warn\n', '');
    expect(await site.check()).toEqual(['docs/about.md:3: the link "faq.md" points at a file that does not exist.']);
  });

  it('reports nav entries and links to a page the agent deleted, and mkdocs.yml that is no longer YAML', async () => {
    await site.remove('docs/guide/setup.md');
    expect(await site.check()).toEqual([
      'mkdocs.yml: the navigation entry "guide/setup.md" has no page (expected docs/guide/setup.md).',
      'docs/index.md:3: the link "guide/setup.md" points at docs/guide/setup.md, which you deleted or moved.',
      'docs/guide/deploy.md:3: the link "setup.md#install" points at docs/guide/setup.md, which you deleted or moved.',
      'docs/guide/deploy.md:3: the link "setup.md#configure-the-project" points at docs/guide/setup.md, which you deleted or moved.',
    ]);
    await site.replace('mkdocs.yml', '  - About: about.md', '  - About: "about.md');
    expect(await site.check()).toEqual([
      expect.stringMatching(/^mkdocs\.yml is no longer valid YAML: /),
      expect.stringContaining('docs/index.md:3'),
      expect.stringContaining('setup.md#install'),
      expect.stringContaining('setup.md#configure'),
    ]);
  });

  it('does not check files outside docs_dir or excluded by exclude_docs', async () => {
    await site.replace('README.md', 'Pages live', 'See [notes](./notes.md). Pages live');
    await site.replace('docs/drafts/roadmap.md', 'See [plans]', 'See [more plans](later.md) and [plans]');
    expect(await site.check()).toEqual([]);
  });
});
