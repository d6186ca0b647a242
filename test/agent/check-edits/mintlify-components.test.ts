import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allFilesNew, editSession, type EditSession } from '../../support/edit-session.js';
import { checkEdits } from '../../../src/agent/check-edits.js';

/**
 * A Mintlify site shaped like the platform's own docs where anchors are concerned: navigation by
 * language (one through "$ref"), tab, group and nested group with a "root"; component pages that import
 * Markdown snippets (which import snippets), document properties with <ResponseField>/<ParamField>
 * (multi-line tags, repeated names, fields nested in <Expandable>), carry example code with headings in
 * it, and link to headings their snippets provide; an <Update> changelog; an API page generated from a spec.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/mintlify-components');

let site: EditSession;
beforeEach(async () => {
  site = await editSession(FIXTURE);
});
afterEach(() => site.cleanup());

/** Append a sentence with these links to the quickstart, as in the finding; returns its line. */
async function linkFromQuickstart(...urls: string[]): Promise<number> {
  const sentence = `See ${urls.map((url, i) => `[link ${i + 1}](${url})`).join(', ')}.`;
  await site.replace('quickstart.mdx', 'publishes the site.\n', `publishes the site.\n\n${sentence}\n`);
  const lines = (await fs.readFile(path.join(site.dir, 'quickstart.mdx'), 'utf8')).split('\n');
  return lines.indexOf(sentence) + 1;
}

describe('checkEdits: anchors on Mintlify pages built from components and snippets', () => {
  it('passes the site as it is, every file checked as if new (headings its snippets provide included)', async () => {
    expect(await checkEdits({ workspaceDir: site.dir, originals: await allFilesNew(site.dir) })).toEqual([]);
  });

  it('reports a new link to a heading a page that imports snippets and uses <ResponseField> does not have', async () => {
    const line = await linkFromQuickstart('/components/cards#no-such-heading', '/components/fields#param-nope');
    expect(await site.check()).toEqual([
      `quickstart.mdx:${line}: the link "/components/cards#no-such-heading" points at a heading or anchor components/cards.mdx does not have.`,
      `quickstart.mdx:${line}: the link "/components/fields#param-nope" points at a heading or anchor components/fields.mdx does not have.`,
    ]);
  });

  it('accepts every anchor such a page has: headings, fields (#param-…), snippets, ids, {#custom-id}s, updates', async () => {
    await linkFromQuickstart(
      '/components/cards#basic-card',
      '/components/cards#card-variations',
      '/components/cards#horizontal-layout',
      '/components/cards#param-title',
      // A multi-line tag, and a field an imported snippet brings.
      '/components/cards#param-horizontal',
      '/components/cards#param-icon',
      // Mintlify decamelizes field names and numbers repeated ones.
      '/components/fields#param-user-id',
      '/components/fields#param-page',
      '/components/fields#param-page-1',
      '/components/fields#param-library',
      '/components/fields#param-display-name',
      '/components/fields#advanced',
      '/components/fields#rate-limits',
      '/components/fields#legacy-anchor',
      '/components/fields#the-placeholder',
      '/components/changelog#2024-10-11',
      // Headings of a snippet, and of the snippet that snippet imports.
      '/automations/create#gitlab-setup',
      '/automations/create#create-an-access-token',
      // Through a redirect and a relative path, to the same page.
      '/content/cards#anything',
      'components/cards#image-cards',
    );
    expect(await site.check()).toEqual([]);
  });

  it('reads a heading in example code as no anchor', async () => {
    const line = await linkFromQuickstart('/components/cards#not-an-anchor-only-an-example');
    expect(await site.check()).toEqual([
      `quickstart.mdx:${line}: the link "/components/cards#not-an-anchor-only-an-example" points at a heading or anchor components/cards.mdx does not have.`,
    ]);
  });

  it('follows snippets that import each other without looping, and still reports what none of them has', async () => {
    await site.write(
      'snippets/gitlab-token.mdx',
      "import GitlabSetup from '/snippets/gitlab-setup.mdx';\n\n### Create an access token\n\nGive it the `api` scope.\n",
    );
    const line = await linkFromQuickstart(
      '/automations/create#create-an-access-token',
      '/automations/create#no-such-step',
    );
    expect(await site.check()).toEqual([
      `quickstart.mdx:${line}: the link "/automations/create#no-such-step" points at a heading or anchor automations/create.mdx does not have.`,
    ]);
  });

  it('still accepts any anchor on pages it cannot know: an API page, a computed heading in a snippet, a missing snippet', async () => {
    await site.write('snippets/release.mdx', '## Release {props.version}\n');
    await site.write(
      'components/releases.mdx',
      '---\ntitle: "Releases"\n---\n\nimport Release from "/snippets/release.mdx";\n\n## Latest\n\n<Release version="2.0" />\n',
    );
    await site.replace(
      'components/cards.mdx',
      'import IconField from "/snippets/icon-field.mdx";',
      'import IconField from "/snippets/icon-field.mdx";\nimport Sizes from "/snippets/sizes.mdx";',
    );
    await linkFromQuickstart(
      '/api/list-users#param-limit',
      '/components/releases#release-20',
      '/components/cards#small',
    );
    // The missing snippet is reported as an import; the anchor that may live in it is not.
    expect(await site.check()).toEqual([
      'components/cards.mdx:8: the import "/snippets/sizes.mdx" names a file that does not exist.',
    ]);
  });

  it('reports links elsewhere to a heading renamed on a page that imports snippets and uses fields', async () => {
    await site.replace('components/cards.mdx', '## Basic card', '## A simple card');
    expect(await site.check()).toEqual([
      'index.mdx:8: the link "/components/cards#basic-card" points at a heading of components/cards.mdx that you removed or renamed.',
    ]);
  });
});
