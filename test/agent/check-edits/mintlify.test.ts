import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEdits } from '../../../src/agent/check-edits.js';
import { allFilesNew, editSession, type EditSession } from '../../support/edit-session.js';

/**
 * A small Mintlify site shaped like real ones: Spanish navigation pulled in with "$ref", a group
 * "root" page, an OpenAPI spec, a snippet, redirects (one with a wildcard), a .mintignore, and the
 * repository files Mintlify never builds (README, CONTRIBUTING, .github).
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/mintlify-checks');

const readFixture = (file: string) => fs.readFile(path.join(FIXTURE, file), 'utf8');

let site: EditSession;
beforeEach(async () => {
  site = await editSession(FIXTURE);
});
afterEach(() => site.cleanup());

describe('checkEdits on a Mintlify site', () => {
  it('passes the site as it is, every file checked as if new', async () => {
    expect(await checkEdits({ workspaceDir: site.dir, originals: await allFilesNew(site.dir) })).toEqual([]);
  });

  describe('1. anchors', () => {
    it('reports a new link to an anchor another page does not have, and accepts headings, {#custom-id}s and titled components', async () => {
      await site.replace(
        'quickstart.mdx',
        '## Start the preview\n',
        '## Start the preview\n\nSet [the token](/guides/configuration#api-tokens) or [ACME_TOKEN](/guides/configuration#environment-variables), use [a subdomain](/guides/configuration#use-a-subdomain) or [your own domain](/guides/configuration#custom-domain).\n',
      );
      expect(await site.check()).toEqual([
        'quickstart.mdx:14: the link "/guides/configuration#api-tokens" points at a heading or anchor guides/configuration.mdx does not have.',
      ]);
    });

    it('reports a new link to an anchor the same page does not have', async () => {
      await site.replace(
        'quickstart.mdx',
        'if `acme` is not found.',
        'if `acme` is not found, or [troubleshoot](#troubleshooting) it.',
      );
      expect(await site.check()).toEqual([
        'quickstart.mdx:15: the link "#troubleshooting" points at a heading or anchor this page does not have.',
      ]);
    });

    it('reports links elsewhere to a heading the agent renamed', async () => {
      await site.replace('guides/configuration.mdx', '## Environment variables', '## Environment settings');
      expect(await site.check()).toEqual([
        'index.mdx:18: the link "/guides/configuration#environment-variables" points at a heading of guides/configuration.mdx that you removed or renamed.',
        'api-reference/introduction.mdx:6: the link "/guides/configuration#environment-variables" points at a heading of guides/configuration.mdx that you removed or renamed.',
      ]);
    });

    it('leaves broken anchors the page already had alone', async () => {
      await site.replace(
        'guides/deployment.mdx',
        'Redeploy an earlier commit.',
        'Redeploy an earlier commit ([how](/quickstart#rollbacks)).',
      );
      const edit = await editSession(site.dir);
      try {
        await edit.replace('guides/deployment.mdx', '## Roll back', '## Roll back a release');
        expect(await edit.check()).toEqual([]);
      } finally {
        await edit.cleanup();
      }
    });
  });

  describe('2. snippets', () => {
    it('reports a new import of a snippet that does not exist', async () => {
      await site.replace(
        'quickstart.mdx',
        '## Install the CLI\n',
        "import Requirements from '/snippets/requirements.mdx';\n\n## Install the CLI\n\n<Requirements />\n",
      );
      expect(await site.check()).toEqual([
        'quickstart.mdx:6: the import "/snippets/requirements.mdx" names a file that does not exist.',
      ]);
    });

    it('reports pages that import a snippet the agent deleted', async () => {
      await site.remove('snippets/plan-note.mdx');
      expect(await site.check()).toEqual([
        'index.mdx:6: the import "/snippets/plan-note.mdx" needs snippets/plan-note.mdx, which you deleted or moved.',
      ]);
    });
  });

  describe('3. navigation in $ref files and group roots', () => {
    it('reports entries in a $ref file and a group root whose pages the agent deleted', async () => {
      await site.remove('es/quickstart.mdx');
      await site.remove('overview.mdx');
      expect(await site.check()).toEqual([
        'docs.json: the navigation entry "overview" has no page (expected overview.mdx or overview.md).',
        'navigation/es.json: the navigation entry "es/quickstart" has no page (expected es/quickstart.mdx or es/quickstart.md).',
        'es/index.mdx:6: the link "/es/quickstart" points at es/quickstart.mdx, which you deleted or moved.',
      ]);
    });

    it('reports a new entry without a page, a $ref file that is no longer JSON and a $ref to nothing', async () => {
      await site.replace(
        'navigation/es.json',
        '"es/guides/configuration"]',
        '"es/guides/configuration", "es/guides/deployment"]',
      );
      expect(await site.check()).toEqual([
        'navigation/es.json: the navigation entry "es/guides/deployment" has no page (expected es/guides/deployment.mdx or es/guides/deployment.md).',
      ]);
      await site.replace('navigation/es.json', '"language": "es",', '"language": "es"');
      expect(await site.check()).toEqual([expect.stringMatching(/^navigation\/es\.json is no longer valid JSON: /)]);
      await site.replace(
        'docs.json',
        '{ "$ref": "./navigation/es.json" }',
        '{ "$ref": "./navigation/es.json" }, { "$ref": "./navigation/fr.json" }',
      );
      expect(await site.check()).toEqual([
        expect.stringMatching(/^navigation\/es\.json is no longer valid JSON: /),
        'docs.json: the "$ref" to navigation/fr.json points at a file that does not exist.',
      ]);
    });
  });

  describe('4. redirects', () => {
    it('reports a new redirect to nowhere, and one whose destination the agent moved', async () => {
      await site.replace(
        'docs.json',
        '"redirects": [',
        '"redirects": [\n    { "source": "/setup", "destination": "/guides/setup" },',
      );
      await site.move('guides/deployment.mdx', 'guides/deploying.mdx');
      await site.replace('docs.json', '"guides/deployment"]', '"guides/deploying"]');
      await site.replace('index.mdx', '(/guides/deployment#', '(/guides/deploying#');
      expect(await site.check()).toEqual([
        'docs.json: the redirect from "/setup" goes to "/guides/setup", which does not exist.',
        'docs.json: the redirect from "/guides/deploy" goes to "/guides/deployment", which you deleted or moved; point it at the page\'s new address.',
      ]);
    });

    it('takes links to a redirect source as working, including a page the agent replaced with a redirect', async () => {
      await site.replace(
        'quickstart.mdx',
        '## Start the preview\n',
        '## Start the preview\n\nSee [deploying](/guides/deploy), [legacy settings](/legacy/configuration) and [old notes](/guides/old-notes).\n',
      );
      expect(await site.check()).toEqual([
        'quickstart.mdx:14: the link "/guides/old-notes" points at a file that does not exist.',
      ]);
      await site.replace('quickstart.mdx', ' and [old notes](/guides/old-notes)', '');
      await site.remove('guides/deployment.mdx');
      await site.replace('docs.json', '"guides/configuration", "guides/deployment"]', '"guides/configuration"]');
      await site.replace(
        'docs.json',
        '"redirects": [',
        '"redirects": [\n    { "source": "/guides/deployment", "destination": "/quickstart" },',
      );
      expect(await site.check()).toEqual([]);
    });
  });

  describe('4b. redirects a missing-page fix adds', () => {
    it('accepts a new redirect from a missing URL to an existing page', async () => {
      await site.replace(
        'docs.json',
        '"redirects": [',
        '"redirects": [\n    { "source": "/quick-start", "destination": "/quickstart" },',
      );
      expect(await site.check()).toEqual([]);
    });

    it('reports a new redirect through another one, and one that loops', async () => {
      await site.replace(
        'docs.json',
        '"redirects": [',
        '"redirects": [\n    { "source": "/deploying", "destination": "/guides/deploy" },\n    { "source": "/a", "destination": "/b" },\n    { "source": "/b", "destination": "/a" },',
      );
      expect(await site.check()).toEqual([
        'docs.json: the redirect from "/deploying" goes to "/guides/deploy", which is itself redirected (/guides/deploy → /guides/deployment); point it at "/guides/deployment" directly.',
        'docs.json: the redirect from "/a" loops (/a → /b → /a); readers never land on a page.',
        'docs.json: the redirect from "/b" loops (/b → /a → /b); readers never land on a page.',
      ]);
    });

    it('reports a new redirect whose source is a page that still exists', async () => {
      await site.replace(
        'docs.json',
        '"redirects": [',
        '"redirects": [\n    { "source": "/guides/configuration", "destination": "/quickstart" },',
      );
      expect(await site.check()).toEqual([
        'docs.json: the redirect from "/guides/configuration" hides the existing page guides/configuration.mdx; redirect only addresses that no longer have a page.',
      ]);
    });
  });

  it('5. reports frontmatter that is not valid YAML', async () => {
    await site.replace('quickstart.mdx', 'title: "Quickstart"', 'title: "Quickstart');
    expect(await site.check()).toEqual([
      'quickstart.mdx no longer parses as MDX: the frontmatter is not valid YAML (line 2): Missing closing "quote',
    ]);
  });

  describe('6. OpenAPI specs and config values', () => {
    it('reports a navigation openapi entry naming a spec that does not exist, new or deleted', async () => {
      await site.replace('docs.json', '"openapi": "api/openapi.json"', '"openapi": "api/openapi.yaml"');
      expect(await site.check()).toEqual([
        'docs.json: the OpenAPI spec "api/openapi.yaml" does not exist (expected api/openapi.yaml).',
      ]);
      await site.replace('docs.json', '"openapi": "api/openapi.yaml"', '"openapi": "api/openapi.json"');
      await site.remove('api/openapi.json');
      expect(await site.check()).toEqual([
        'docs.json: the OpenAPI spec "api/openapi.json" does not exist (expected api/openapi.json).',
      ]);
    });

    it('takes links to pages generated from the spec as working, since no file backs them', async () => {
      await site.replace(
        'api-reference/introduction.mdx',
        'Every request',
        'List them with [GET /projects](/api-reference/list-projects). Every request',
      );
      expect(await site.check()).toEqual([]);
    });

    it('reports values docs.json does not allow, only where the edit introduced them', async () => {
      await site.replace('docs.json', '"theme": "maple"', '"theme": "midnight"');
      await site.replace('docs.json', '"default": "system"', '"default": "auto"');
      await site.replace('docs.json', '"primary": "#0D9373"', '"primary": "green"');
      expect(await site.check()).toEqual([
        'docs.json: "theme" is "midnight"; it must be one of mint, maple, palm, willow, linden, almond, aspen, sequoia, luma.',
        'docs.json: "appearance.default" is "auto"; it must be one of system, light, dark.',
        'docs.json: "colors.primary" is "green"; it must be a hex colour such as "#0D9373".',
      ]);
      const next = await editSession(site.dir);
      try {
        await next.replace('docs.json', '"name": "Acme Docs"', '"name": "Acme documentation"');
        expect(await next.check()).toEqual([]);
      } finally {
        await next.cleanup();
      }
    });
  });

  describe('7. files Mintlify does not build', () => {
    it('neither parse-checks nor link-checks README, CONTRIBUTING, .github, or what .mintignore excludes', async () => {
      await site.replace(
        'README.md',
        'The site is built',
        '<!-- Not MDX either. -->\nSee [setup](./setup.mdx). The site is built',
      );
      await site.replace('CONTRIBUTING.md', 'Use sentence case.', 'Use { sentence case.');
      await site.write('.github/ISSUE_TEMPLATE/bug.md', '<!-- What happened? -->\n[docs](/nowhere)\n');
      await site.replace('drafts/roadmap.mdx', '<Card title="Soon"', '<Card title="Later"');
      await site.write('guides/launch.draft.mdx', 'Launch { date }, see [plans](/plans).\n');
      expect(await site.check()).toEqual([]);
    });

    it('does not search them for links to a page the agent deleted', async () => {
      await site.remove('guides/configuration.mdx');
      const problems = await site.check();
      expect(problems.filter((p) => /README|CONTRIBUTING|\.github|drafts/.test(p))).toEqual([]);
      expect(problems).toContain(
        'docs.json: the navigation entry "guides/configuration" has no page (expected guides/configuration.mdx or guides/configuration.md).',
      );
    });
  });

  it('8. accepts a code block left open at the end of a page', async () => {
    await site.write(
      'guides/deployment.mdx',
      `${await readFixture('guides/deployment.mdx')}\n\`\`\`yaml\nname: deploy\n`,
    );
    expect(await site.check()).toEqual([]);
  });
});
