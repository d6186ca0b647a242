import { jest } from '@jest/globals';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(PROVIDERS)('tracker group commit on %s', (provider) => {
  let app: TestApp;
  // a window far wider than 30 local requests take to arrive, even on a loaded machine: with 50 ms the requests
  // sometimes straddled windows and the count of commits measured the machine's load instead of the grouping
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      env: { SCRIBE_TRACKER_COMMIT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await app.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const send = (projectId: string, path: string) =>
    fetch(`${app.url}/api/event`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME },
      body: JSON.stringify({ projectId, url: `https://docs.example.com${path}` }),
    });

  it('stores concurrent events in shared transactions, one per project and window, and answers after the commit', async () => {
    const [a, b] = [
      await app.project({ hostnames: ['docs.example.com'] }),
      await app.project({ hostnames: ['docs.example.com'] }),
    ];
    const ingest = jest.spyOn(app.services.analytics, 'ingest');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(i % 3 ? a.id : b.id, `/p${i}`)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(202));
    // every answer came after its event was committed: the stored events are all there at once
    const counts = ingest.mock.calls.map(([projectId, views]) => [projectId, views.length] as const);
    expect(counts.reduce((n, [, k]) => n + k, 0)).toBe(30);
    expect(counts.length).toBeLessThanOrEqual(4);
    expect(new Set(counts.map(([p]) => p))).toEqual(new Set([a.id, b.id]));
    const key = await app.key(a.id, 'read');
    const views = await fetch(`${app.url}/v1/analytics/${a.id}/views`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.json() as Promise<{ totals: { total: number } }>);
    expect(views.totals.total).toBe(20);
  });

  it('answers 503 with a JSON error, not 202, when the commit fails', async () => {
    const project = await app.project({ hostnames: ['docs.example.com'] });
    jest.spyOn(app.services.analytics, 'ingest').mockRejectedValueOnce(new Error('database is locked'));
    const res = await send(project.id, '/lost');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'The event could not be stored; try again' });
    expect((await send(project.id, '/kept')).status).toBe(202);
  });
});
