import zlib from 'node:zlib';
import express from 'express';
import type { RouteModule } from '../../../../src/http/app.js';
import type { HotRoute } from '../../../../src/http/hot-routes.js';
import type { AppContext } from '../../../../src/http/context.js';
import type { Analytics } from '../../../../src/analytics/analytics.js';
import { loadConfig } from '../../../../src/config.js';
import { createLogger } from '../../../../src/logger.js';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('the tracker hot route', () => {
  it('is added for the event and its preflight, and takes only plain event bodies', () => {
    const hot: HotRoute[] = [];
    const ctx = {
      config: loadConfig({}),
      logger: createLogger('silent'),
      clock: () => new Date(),
    } as unknown as AppContext;
    analyticsRoutes({ analytics: {} as Analytics })(express.Router(), ctx, (route) => void hot.push(route));
    expect(hot.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['OPTIONS /api/event', 'POST /api/event']);
    const post = hot.find((r) => r.method === 'POST')!;
    const request = (headers: Record<string, string>) => ({ headers }) as never;
    expect(post.accepts?.(request({ 'content-type': 'text/plain;charset=UTF-8', 'content-length': '90' }))).toBe(true);
    expect(post.accepts?.(request({ 'content-type': 'text/plain;charset=UTF-8', 'content-length': '8193' }))).toBe(
      false,
    );
    expect(
      post.accepts?.(request({ 'content-type': 'text/plain', 'content-length': '90', 'content-encoding': 'gzip' })),
    ).toBe(false);
  });
});

describe.each(PROVIDERS)('the tracker with and without its hot route on %s', (provider) => {
  let hot: TestApp;
  let routed: TestApp;
  beforeAll(async () => {
    hot = await startTestApp({ provider, routes: ({ analytics }) => [analyticsRoutes({ analytics })] });
    // the same module, mounted without a way to add hot routes: every request takes the router
    const withoutHot =
      (analytics: Analytics): RouteModule =>
      (router, ctx) =>
        analyticsRoutes({ analytics })(router, ctx);
    routed = await startTestApp({ provider, routes: ({ analytics }) => [withoutHot(analytics)] });
  });
  afterAll(async () => {
    for (const app of [hot, routed]) await app.close();
  });

  it('answers every request alike and stores the same events', async () => {
    const [a, b] = [
      await hot.project({ hostnames: ['docs.example.com'] }),
      await routed.project({ hostnames: ['docs.example.com'] }),
    ];
    const cases = (projectId: string): [string, RequestInit][] => {
      const event = (path: string) =>
        JSON.stringify({ projectId, url: `https://docs.example.com${path}`, referrer: 'https://chatgpt.com/c/1' });
      const text = { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME };
      return [
        ['POST', { headers: text, body: event('/beacon') }],
        [
          'POST',
          {
            headers: { ...text, 'content-type': 'application/json', origin: 'https://docs.example.com' },
            body: event('/fetch'),
          },
        ],
        ['POST', { headers: { ...text, origin: 'https://evil.example.net' }, body: event('/foreign') }],
        ['POST', { headers: text, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(event('/bom'))]) }],
        ['POST', { headers: text, body: '{not json' }],
        ['POST', { headers: text, body: '' }],
        ['POST', { headers: text, body: JSON.stringify({ projectId, url: 'javascript:alert(1)' }) }],
        ['POST', { headers: text, body: event('/long') + ' '.repeat(8192) }],
        ['POST', { headers: { ...text, 'content-encoding': 'gzip' }, body: zlib.gzipSync(event('/gzip')) }],
        ['POST', { headers: { ...text, 'content-encoding': 'gzip' }, body: 'xx' }],
        ['OPTIONS', { headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' } }],
      ];
    };
    const answer = async (app: TestApp, [method, init]: [string, RequestInit]) => {
      const res = await fetch(`${app.url}/api/event`, { method, ...init });
      const headers = Object.fromEntries(
        [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'),
      );
      return {
        status: res.status,
        headers,
        body: await res.text(),
        requestId: /^[0-9a-f-]{36}$/.test(res.headers.get('x-request-id') ?? ''),
      };
    };
    const [hotCases, routedCases] = [cases(a.id), cases(b.id)];
    for (let i = 0; i < hotCases.length; i++) {
      expect({ case: i, ...(await answer(hot, hotCases[i])) }).toEqual({
        case: i,
        ...(await answer(routed, routedCases[i])),
      });
    }
    const stored = (app: TestApp, projectId: string) =>
      app.ctx.db.$queryRawUnsafe<{ referrer: string | null; agent: string | null; kind: number }[]>(
        `SELECT "referrer", "agent", "kind" FROM "AnalyticsEvent" WHERE "projectId" = ${provider === 'sqlite' ? '?' : '$1'} ORDER BY "id"`,
        projectId,
      );
    const [hotRows, routedRows] = [await stored(hot, a.id), await stored(routed, b.id)];
    expect(hotRows.length).toBe(4);
    expect(hotRows.map((r) => [r.referrer, r.agent, Number(r.kind)])).toEqual(
      routedRows.map((r) => [r.referrer, r.agent, Number(r.kind)]),
    );
  });
});
