import { Writable } from 'node:stream';
import { Webhooks } from '@octokit/webhooks';
import { startScribe, type RunningScribe } from '../../../src/main.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { buildAppManifest, newAppUrl } from '../../../src/github/app-manifest.js';
import { createTestDatabase } from '../../support/databases.js';
import { startGitHubHost, type GitHubHost } from '../../support/github-host.js';

const unescapeHtml = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2].replace(/^"|"$/g, '');
  }
  return env;
}

describe('buildAppManifest', () => {
  it('takes events and permissions from app.yml and points the webhook and redirect at this server', () => {
    const appYml =
      'name: Scribe\nurl: https://example.com/scribe\npublic: false\ndefault_events:\n  - issue_comment\ndefault_permissions:\n  contents: write\nhook_attributes:\n  url: https://placeholder.example/hook\n';
    expect(buildAppManifest({ appYml, baseUrl: 'https://scribe.acme.com/' })).toEqual({
      name: 'Scribe',
      url: 'https://example.com/scribe',
      public: false,
      hook_attributes: { url: 'https://scribe.acme.com/api/github/webhooks', active: true },
      redirect_url: 'https://scribe.acme.com/probot/setup',
      default_events: ['issue_comment'],
      default_permissions: { contents: 'write' },
    });
    expect(newAppUrl({ webBase: 'https://ghe.acme.com', organization: 'docs team', state: 'a.b' })).toBe(
      'https://ghe.acme.com/organizations/docs%20team/settings/apps/new?state=a.b',
    );
  });
});

describe('the manifest flow at /probot (APP_ID unset)', () => {
  let github: GitHubHost;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const running: RunningScribe[] = [];
  const logs: string[] = [];
  const start = async (env: Record<string, string>) => {
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        logs.push(chunk.toString('utf8'));
        cb();
      },
    });
    const config = {
      // SCRIBE_AI_RANGES_REFRESH=off: never the operators' real sites
      ...loadConfig({
        PORT: '0',
        GHE_HOST: github.host,
        GHE_PROTOCOL: 'http',
        SCRIBE_AI_RANGES_REFRESH: 'off',
        ...env,
      }),
      database: database.target,
    };
    const scribe = await startScribe(config, createLogger('info', sink));
    running.push(scribe);
    return scribe;
  };
  beforeAll(async () => {
    github = await startGitHubHost();
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    for (const scribe of running) await scribe.stop();
    await github.close();
    await database.drop();
  });

  it('registers the App from app.yml on the GitHub host and shows the values to set, which then configure Scribe', async () => {
    const scribe = await start({});
    const html = await (await fetch(`${scribe.url}/probot`)).text();
    const action = unescapeHtml(/<form method="post" action="([^"]+)"/.exec(html)![1]);
    const manifest = JSON.parse(unescapeHtml(/name="manifest" value="([^"]+)"/.exec(html)![1]));
    expect(action.startsWith(`${github.url}/settings/apps/new?state=`)).toBe(true);
    expect(manifest).toMatchObject({
      name: 'Scribe',
      public: false,
      hook_attributes: { url: `${scribe.url}/api/github/webhooks`, active: true },
      redirect_url: `${scribe.url}/probot/setup`,
      default_events: ['pull_request', 'issue_comment', 'pull_request_review_comment', 'push', 'check_run'],
      default_permissions: {
        contents: 'write',
        statuses: 'write',
        checks: 'write',
        pull_requests: 'write',
        issues: 'write',
        metadata: 'read',
      },
    });

    // The browser posts the form to GitHub, which sends it back to /probot/setup with a code.
    const posted = await fetch(action, {
      method: 'POST',
      body: new URLSearchParams({ manifest: JSON.stringify(manifest) }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    const setupUrl = posted.headers.get('location')!;
    expect(setupUrl.startsWith(`${scribe.url}/probot/setup?code=`)).toBe(true);
    const setup = await fetch(setupUrl);
    expect(setup.status).toBe(200);
    const env = parseEnv(unescapeHtml(/<pre>([\s\S]*?)<\/pre>/.exec(await setup.text())![1]));
    expect(env).toMatchObject({
      APP_ID: String(github.app.id),
      WEBHOOK_SECRET: 'generated-webhook-secret',
      SCRIBE_APP_SLUG: github.app.slug,
    });
    expect(env.PRIVATE_KEY.replace(/\\n/g, '\n')).toBe(github.app.privateKey.trim());
    // The code converts once.
    expect((await fetch(setupUrl)).status).toBe(502);
    expect(logs.join('')).not.toContain('generated-webhook-secret');

    // Restarted with those values, Scribe is the App: /probot is gone and deliveries signed with the new secret are accepted.
    const configured = await start(env);
    expect((await fetch(`${configured.url}/probot`)).status).toBe(404);
    const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1 });
    const delivered = await fetch(`${configured.url}/api/github/webhooks`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': 'setup-ping',
        'x-hub-signature-256': await new Webhooks({ secret: env.WEBHOOK_SECRET }).sign(body),
      },
    });
    expect(delivered.status).toBe(200);
  });

  it('registers for an organisation and refuses a redirect it did not start', async () => {
    const scribe = running[0];
    const html = await (await fetch(`${scribe.url}/probot?org=acme`)).text();
    const action = unescapeHtml(/<form method="post" action="([^"]+)"/.exec(html)![1]);
    expect(action.startsWith(`${github.url}/organizations/acme/settings/apps/new?state=`)).toBe(true);
    const posted = await fetch(action, {
      method: 'POST',
      body: new URLSearchParams({ manifest: unescapeHtml(/name="manifest" value="([^"]+)"/.exec(html)![1]) }),
      redirect: 'manual',
    });
    expect(github.manifests.at(-1)!.organization).toBe('acme');
    const forged = new URL(posted.headers.get('location')!);
    forged.searchParams.set('state', `${Date.now()}.00.${'0'.repeat(64)}`);
    expect((await fetch(forged)).status).toBe(400);
    forged.searchParams.delete('state');
    expect((await fetch(forged)).status).toBe(400);
  });
});
