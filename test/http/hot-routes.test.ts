import { jest } from '@jest/globals';
import type { RouteModule } from '../../src/http/app.js';
import { Invalid } from '../../src/errors.js';
import { httpRequestDuration } from '../../src/metrics/metrics.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** One path served twice: by the router, and by a hot route for requests that carry an `x-hot` header. */
const probeRoutes: RouteModule = (router, _ctx, addHotRoute) => {
  router.post('/v1/hot-probe', (_req, res) => void res.send('router'));
  addHotRoute?.({
    method: 'POST',
    path: '/v1/hot-probe',
    accepts: (req) => req.headers['x-hot'] !== undefined,
    handle: (req, res, fail) => {
      if (req.headers['x-hot'] === 'fail') fail(new Invalid('Refused by the hot route'));
      // what Express adds to a request (req.get, req.app) is not there: Express never saw it
      else res.end(`hot, ${'get' in req || 'app' in req ? 'through' : 'before'} Express`);
    },
  });
};

async function observations(route: string, status: string): Promise<number> {
  const metric = await httpRequestDuration.get();
  return (
    metric.values.find(
      (v) => v.metricName?.endsWith('_count') && v.labels.route === route && v.labels.status === status,
    )?.value ?? 0
  );
}

describe('hot routes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider: 'sqlite', routes: [probeRoutes] });
  });
  afterAll(async () => {
    await app.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers, body: 'x' });

  it('answer the requests they accept before Express, with the request id, log line and duration metric its middleware would give', async () => {
    const logged = jest.spyOn(app.ctx.logger, 'info');
    const before = await observations('/v1/hot-probe', '200');
    const res = await post('/v1/hot-probe', { 'x-hot': '1', 'x-request-id': 'probe-request-1' });
    expect(await res.text()).toBe('hot, before Express');
    expect(res.headers.get('x-request-id')).toBe('probe-request-1');
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'probe-request-1', method: 'POST', route: '/v1/hot-probe', status: 200 }),
      'request',
    );
    expect(await observations('/v1/hot-probe', '200')).toBe(before + 1);
  });

  it('leave everything else to the router: requests not accepted, other paths, query strings', async () => {
    for (const [path, headers] of [
      ['/v1/hot-probe', {}],
      ['/v1/hot-probe?x=1', { 'x-hot': '1' }],
      ['/v1/hot-probe/', { 'x-hot': '1' }],
    ] as const) {
      const res = await post(path, headers);
      expect(await res.text()).toBe('router');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('hand their errors to the app error handler, which answers with the usual JSON error', async () => {
    const res = await post('/v1/hot-probe', { 'x-hot': 'fail' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ error: 'Refused by the hot route' });
  });
});
