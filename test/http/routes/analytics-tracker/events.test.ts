import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { droppedSubmissions } from '../../../../src/metrics/metrics.js';

/** `scribe_dropped_submissions_total` for page views, by reason */
async function droppedViews(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const v of (await droppedSubmissions.get()).values)
    if (v.labels.submission === 'page_view') counts[String(v.labels.reason)] = v.value;
  return counts;
}

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

describe.each(PROVIDERS)('browser tracker on %s', (provider) => {
  let app: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ provider, routes: ({ analytics }) => [analyticsRoutes({ analytics })] });
    proxied = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      env: { SCRIBE_TRUSTED_PROXY_HEADER: 'X-Forwarded-For' },
    });
  });
  afterAll(async () => {
    for (const a of [app, proxied]) {
      await a.close();
    }
  });

  const send = (target: TestApp, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${target.url}/api/event`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function views(target: TestApp, projectId: string) {
    const key = await target.key(projectId, 'read');
    const res = await fetch(`${target.url}/v1/analytics/${projectId}/views`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return (await res.json()) as { totals: { human: number; ai: number; total: number }; views: { path: string }[] };
  }

  async function visitors(target: TestApp, projectId: string) {
    const key = await target.key(projectId, 'read');
    const res = await fetch(`${target.url}/v1/analytics/${projectId}/visitors`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await res.json()) as { totals: { human: number } }).totals;
  }

  it('serves a small cookie-less script', async () => {
    const res = await fetch(`${app.url}/js/scribe.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    const script = await res.text();
    // page views, the search API and the opt-in feedback widget, unminified
    expect(script.length).toBeLessThan(6000);
    expect(script).toContain('sendBeacon');
    expect(script).toContain('/api/event');
    expect(script).not.toMatch(/cookie|localStorage|sessionStorage/);
  });

  it('records page views from the project hostnames, keeping an AI assistant referrer', async () => {
    const project = await app.project({ hostnames: ['docs.example.com'] });
    const res = await send(app, {
      projectId: project.id,
      url: 'https://docs.example.com/start?utm=x',
      referrer: 'https://chatgpt.com/c/123?secret=1',
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    await send(
      app,
      { projectId: project.id, url: 'https://docs.example.com/start' },
      { origin: 'https://docs.example.com', 'content-type': 'application/json' },
    );
    const body = await views(app, project.id);
    expect(body.totals).toEqual({ human: 2, ai: 0, total: 2 });
    expect(body.views.map((v) => v.path)).toEqual(['/start']);
    const stored = await app.ctx.db.$queryRawUnsafe<{ referrer: string | null; agent: string | null; kind: number }[]>(
      'SELECT "referrer", "agent", "kind" FROM "AnalyticsEvent" WHERE "projectId" = $1 ORDER BY "id"'.replace(
        '$1',
        provider === 'sqlite' ? '?' : '$1',
      ),
      project.id,
    );
    expect(stored.map((r) => [r.referrer, r.agent, Number(r.kind)])).toEqual([
      ['https://chatgpt.com/c/123', 'via ChatGPT', 1],
      [null, null, 1],
    ]);
  });

  it('answers 202 but drops events for other hostnames, origins, unknown projects and bots', async () => {
    const project = await app.project({ hostnames: ['docs.example.com'] });
    const before = await droppedViews();
    const dropped = [
      send(app, { projectId: project.id, url: 'https://evil.example.net/start' }),
      send(
        app,
        { projectId: project.id, url: 'https://docs.example.com/start' },
        { origin: 'https://evil.example.net' },
      ),
      send(app, { projectId: 'prj_unknownunknownunkn', url: 'https://docs.example.com/start' }),
      send(app, { projectId: project.id, url: 'https://docs.example.com/start' }, { 'user-agent': HEADLESS }),
    ];
    for (const res of await Promise.all(dropped)) {
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    }
    expect((await views(app, project.id)).totals).toEqual({ human: 0, ai: 0, total: 0 });
    // the page is told nothing, the operator's metrics are: a bot's view is kept as a bot's, not dropped
    const after = await droppedViews();
    expect((after.host_not_listed ?? 0) - (before.host_not_listed ?? 0)).toBe(2);
    expect((after.unknown_project ?? 0) - (before.unknown_project ?? 0)).toBe(1);
  });

  it('refuses malformed events with 400', async () => {
    const project = await app.project();
    for (const body of [
      '{not json',
      { url: 'https://docs.example.com/' },
      { projectId: project.id, url: 'javascript:alert(1)' },
      [1],
    ]) {
      const res = await send(app, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/Malformed JSON|Invalid event/);
    }
    const preflight = await fetch(`${app.url}/api/event`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('identifies visitors by socket address unless a trusted proxy header is configured', async () => {
    for (const [target, expected] of [
      [app, 2],
      [proxied, 3],
    ] as const) {
      const project = await target.project({ hostnames: ['docs.example.com'] });
      const url = 'https://docs.example.com/a';
      await send(target, { projectId: project.id, url }, { 'x-forwarded-for': '198.51.100.1' });
      await send(target, { projectId: project.id, url }, { 'x-forwarded-for': '6.6.6.6, 198.51.100.2' });
      await send(target, { projectId: project.id, url }, { 'x-forwarded-for': '198.51.100.2' });
      await send(target, { projectId: project.id, url }, { 'x-forwarded-for': '198.51.100.3', 'user-agent': FIREFOX });
      // without the setting every request comes from the loopback socket: one Chrome and one Firefox visitor
      expect(await visitors(target, project.id)).toMatchObject({ human: expected });
    }
  });
});
