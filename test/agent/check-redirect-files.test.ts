import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { editSession, type EditSession } from '../support/edit-session.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/agent');

/** Redirects a missing-page fix adds outside Mintlify's config, as checkEdits (and so the agent) sees them. */
describe('redirects in host files, Docusaurus and MkDocs', () => {
  let site: EditSession;
  afterEach(() => site.cleanup());

  it('checks new _redirects, vercel.json and netlify.toml entries: a page at the destination, no chain, loop or hidden page', async () => {
    site = await editSession(path.join(FIXTURES, 'mintlify-site'));
    await site.write('_redirects', '# old URLs\n/setup /quickstart 301\n');
    await site.write(
      'vercel.json',
      JSON.stringify({ redirects: [{ source: '/deploy', destination: '/guides/deployment' }] }),
    );
    await site.write(
      'netlify.toml',
      '[build]\ncommand = "x"\n\n[[redirects]]\nfrom = "/config"\nto = "/guides/configuration"\n',
    );
    expect(await site.check()).toEqual([]);
    await site.write('_redirects', '/setup /quickstart 301\n/start /setup 301\n/x /y\n/y /x\n/gone /nowhere\n');
    expect(await site.check()).toEqual([
      '_redirects: the redirect from "/start" goes to "/setup", which is itself redirected (/setup → /quickstart); point it at "/quickstart" directly.',
      '_redirects: the redirect from "/x" loops (/x → /y → /x); readers never land on a page.',
      '_redirects: the redirect from "/y" loops (/y → /x → /y); readers never land on a page.',
      '_redirects: the redirect from "/gone" goes to "/nowhere", which does not exist.',
    ]);
    await site.write('_redirects', '/quickstart /guides/deployment\n');
    expect(await site.check()).toEqual([
      '_redirects: the redirect from "/quickstart" hides the existing page quickstart.mdx; redirect only addresses that no longer have a page.',
    ]);
  });

  it('leaves the redirects a file already had alone', async () => {
    site = await editSession(path.join(FIXTURES, 'mintlify-site'));
    await site.write('_redirects', '/old /nowhere\n');
    site.originals.set('_redirects', '/old /nowhere\n');
    await site.write('_redirects', '/old /nowhere\n/setup /quickstart\n');
    expect(await site.check()).toEqual([]);
  });

  it("checks Docusaurus's client-redirects against the site's routes", async () => {
    site = await editSession(path.join(FIXTURES, 'docusaurus-site'));
    await site.replace(
      'docusaurus.config.js',
      '  presets: [',
      "  plugins: [['@docusaurus/plugin-client-redirects', { redirects: [{ from: '/start', to: '/docs/intro' }, { from: '/faq', to: '/docs/missing' }] }]],\n  presets: [",
    );
    expect(await site.check()).toEqual([
      'docusaurus.config.js: the redirect from "/faq" goes to "/docs/missing", which does not exist.',
    ]);
  });

  it("checks MkDocs's redirect_maps: the new page there, the old one gone", async () => {
    site = await editSession(path.join(FIXTURES, 'mkdocs-site'));
    await site.replace(
      'mkdocs.yml',
      'markdown_extensions:',
      'plugins:\n  - redirects:\n      redirect_maps:\n        guide/install.md: guide/setup.md\n        guide/old.md: guide/missing.md\n        about.md: index.md\nmarkdown_extensions:',
    );
    expect(await site.check()).toEqual([
      'mkdocs.yml: the redirect from "guide/old.md" goes to "guide/missing.md", which does not exist.',
      'mkdocs.yml: the redirect from "about.md" hides the existing page docs/about.md; redirect only addresses that no longer have a page.',
    ]);
  });
});
