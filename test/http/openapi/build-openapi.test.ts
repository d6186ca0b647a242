import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../src/http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from '../../../src/http/routes/analytics-feedback.js';
import { dashboardRoutes } from '../../../src/http/routes/dashboard.js';
import { apiDocsRoutes } from '../../../src/http/routes/api-docs.js';
import { healthRoutes } from '../../../src/http/routes/health.js';
import { metricsRoutes } from '../../../src/http/routes/metrics.js';
import { automationRoutes } from '../../../src/http/routes/automations.js';
import { mcpRoutes } from '../../../src/http/routes/mcp.js';
import { analyticsRobotsRoutes } from '../../../src/http/routes/analytics-robots.js';
import { analyticsCoverageRoutes } from '../../../src/http/routes/analytics-coverage.js';
import { DocsSites } from '../../../src/http/mcp/docs-sites.js';
import { outgoingWebhookRoutes } from '../../../src/http/routes/outgoing-webhooks.js';
import { EVENT_TYPES, PING } from '../../../src/notifications/event-types.js';
import { openApiConformance, routedOperations } from '../../support/openapi-conformance.js';
import { startTestApp, type TestApp, jobRoutes } from '../../support/test-app.js';
import { testAppPrivateKey } from '../../support/app-private-key.js';
import { problemRoutesFor } from '../../support/problem-routes.js';
import { outcomesFor } from '../../support/outcome-routes.js';
import { recordDocsMerge } from '../../../src/outcomes/merge-store.js';
import { analyticsMissBeaconRoutes } from '../../../src/http/routes/analytics-miss-beacon.js';

const privateKey = testAppPrivateKey();

/** Pages for people (the reference and the dashboard) and CORS preflight: served next to the API, not part of it. */
const NOT_API = new Set([
  'get /docs',
  'get /docs/init.js',
  'get /dashboard',
  'get /dashboard/dashboard.js',
  'get /dashboard/dashboard.css',
  'options /api/event',
  'options /api/feedback',
  'options /api/search',
]);

const sites = new DocsSites({
  now: Date.now,
  source: { headSha: async () => 'c0ffee', files: async () => [{ path: 'index.md', text: '# Home\n' }] },
});

describe('the OpenAPI document', () => {
  let app: TestApp;
  let document: Parameters<typeof openApiConformance>[0] & {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
  };
  let conformance: ReturnType<typeof openApiConformance>;
  let projectId: string;
  let write: string;
  let read: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => {
        const outcomes = outcomesFor({ analytics });
        return [
          healthRoutes,
          metricsRoutes,
          apiDocsRoutes,
          analyticsRoutes({ analytics }),
          analyticsAiRoutes({ analytics }),
          analyticsBreakdownRoutes({ analytics }),
          analyticsFeedbackRoutes({ analytics }),
          dashboardRoutes,
          jobRoutes({ outcomes: outcomes.of }),
          automationRoutes({ automations: null }),
          problemRoutesFor({ analytics, pages: [{ path: '/limits', file: 'limits.mdx', title: 'Rate limits' }] }),
          outcomes.routes,
          analyticsMissBeaconRoutes({ analytics }),
          analyticsRobotsRoutes({ analytics }),
          analyticsCoverageRoutes({ analytics, sites }),
          mcpRoutes({ analytics, sites }),
          outgoingWebhookRoutes(),
        ];
      },
      env: { APP_ID: '1', PRIVATE_KEY: privateKey, ANTHROPIC_API_KEY: 'test', SCRIBE_JOB_RATE_LIMIT: '2' },
    });
    projectId = (await app.project({ hostnames: ['docs.example.com'] })).id;
    write = await app.key(projectId, 'write');
    read = await app.key(projectId, 'read');
    document = (await (await fetch(`${app.url}/openapi.json`)).json()) as typeof document;
    conformance = openApiConformance(document);
  });
  afterAll(async () => {
    await app.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result).toEqual({ valid: true });
  });

  it('describes the body of every outgoing webhook event, and of the ping', () => {
    const webhooks = (document as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> }).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...Object.keys(EVENT_TYPES), PING].sort());
    expect(JSON.stringify(webhooks['job.status_changed'].post.requestBody)).toContain('previousStatus');
  });

  it('is the document the docs site publishes, webhooks included', () => {
    const published = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'openapi.json'), 'utf8'));
    expect(published).toEqual(document);
  });

  it('documents exactly the routes the app serves', () => {
    const served = routedOperations(app.app)
      .filter((op) => !NOT_API.has(op))
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
      .sort();
    expect(served).toEqual(documented);
  });

  it("describes every route's real responses, successes and errors alike", async () => {
    const call = async (
      method: string,
      docPath: string,
      init: { path?: string; key?: string; body?: string; contentType?: string; accept?: string } = {},
    ) => {
      const url = `${app.url}${init.path ?? docPath.replace('{projectId}', projectId)}`;
      const response = await fetch(url, {
        method,
        body: init.body,
        headers: {
          ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
          ...(init.contentType ? { 'content-type': init.contentType } : {}),
          ...(init.accept ? { accept: init.accept } : {}),
        },
      });
      return conformance.check({ method, path: docPath, response });
    };
    const json = 'application/json';

    expect((await call('GET', '/healthz')).status).toBe(200);
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', '/metrics')).status).toBe(200);
    expect((await call('GET', '/openapi.json')).status).toBe(200);

    // analytics
    const day = new Date(Date.now() - 86_400_000).toISOString();
    const events = JSON.stringify([
      {
        timestamp: day,
        path: '/intro',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        ip: '198.51.100.7',
      },
      { path: '/bad' },
    ]);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/events', { key: write, body: events, contentType: json })).status,
    ).toBe(202);
    expect(
      (
        await call('POST', '/v1/analytics/{projectId}/events', {
          key: write,
          body: '{"not":"an array"}',
          contentType: json,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/events', { key: read, body: '[]', contentType: json })).status,
    ).toBe(403);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/events', { key: write, body: '[]', contentType: 'text/csv' }))
        .status,
    ).toBe(415);
    const logLine = `198.51.100.8 - - [${new Date(Date.now() - 3_600_000).toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000')}] "GET /guide HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15"\nnot a log line\n`;
    expect(
      (await call('POST', '/v1/analytics/{projectId}/logs', { key: write, body: logLine, contentType: 'text/plain' }))
        .status,
    ).toBe(202);
    const visitors = await call('GET', '/v1/analytics/{projectId}/visitors', { key: read });
    expect(visitors.status).toBe(200);
    expect((visitors.body as { totals: { total: number } }).totals.total).toBeGreaterThanOrEqual(1);
    expect(
      (
        await call('GET', '/v1/analytics/{projectId}/visitors', {
          key: read,
          path: `/v1/analytics/${projectId}/visitors?limit=0`,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v1/analytics/{projectId}/visitors')).status).toBe(401);
    expect((await call('GET', '/v1/analytics/{projectId}/views', { key: read })).status).toBe(200);
    const daily = await call('GET', '/v1/analytics/{projectId}/visitors/daily', { key: read });
    expect((daily.body as { days: unknown[] }).days).toHaveLength(31);
    expect(
      (
        await call('GET', '/v1/analytics/{projectId}/visitors/daily', {
          key: read,
          path: `/v1/analytics/${projectId}/visitors/daily?dateFrom=2020-01-01`,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v1/analytics/{projectId}/agents', { key: read })).status).toBe(200);
    expect(
      (await call('GET', '/v1/analytics/{projectId}/views', { key: read, path: '/v1/analytics/prj_other/views' }))
        .status,
    ).toBe(403);
    expect((await call('GET', '/js/scribe.js')).status).toBe(200);
    expect(
      (
        await call('POST', '/api/event', {
          body: JSON.stringify({ projectId, url: 'https://docs.example.com/intro' }),
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(202);
    expect((await call('POST', '/api/event', { body: '{', contentType: 'text/plain' })).status).toBe(400);

    // feedback and searches
    const feedback = JSON.stringify([
      { path: '/intro', helpful: false, comment: 'Too short', ip: '198.51.100.9' },
      { path: '/intro', source: 'code_snippet' },
    ]);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/feedback', { key: write, body: feedback, contentType: json }))
        .status,
    ).toBe(202);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/feedback', { key: write, body: '{}', contentType: json })).status,
    ).toBe(400);
    const searches = JSON.stringify([{ query: 'rate limits' }, { query: 'rate limits', clickedPath: '/limits' }]);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/searches', { key: write, body: searches, contentType: json }))
        .status,
    ).toBe(202);
    expect(
      (await call('POST', '/v1/analytics/{projectId}/searches', { key: read, body: '[]', contentType: json })).status,
    ).toBe(403);
    expect((await call('GET', '/v1/analytics/{projectId}/feedback', { key: read })).status).toBe(200);
    expect(
      (
        await call('GET', '/v1/analytics/{projectId}/feedback', {
          key: read,
          path: `/v1/analytics/${projectId}/feedback?cursor=forged`,
        })
      ).status,
    ).toBe(400);
    const listed = await call('GET', '/v1/analytics/{projectId}/feedback', {
      key: read,
      path: `/v1/analytics/${projectId}/feedback?limit=1`,
    });
    const feedbackId = (listed.body as { feedback: { id: string }[] }).feedback[0].id;
    const statusPath = (id: string) => `/v1/analytics/${projectId}/feedback/${id}`;
    expect(
      (
        await call('PATCH', '/v1/analytics/{projectId}/feedback/{feedbackId}', {
          key: write,
          path: statusPath(feedbackId),
          body: '{"status":"resolved"}',
          contentType: json,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PATCH', '/v1/analytics/{projectId}/feedback/{feedbackId}', {
          key: write,
          path: statusPath('404'),
          body: '{"status":"resolved"}',
          contentType: json,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('PATCH', '/v1/analytics/{projectId}/feedback/{feedbackId}', {
          key: write,
          path: statusPath(feedbackId),
          body: '{"status":"open"}',
          contentType: json,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v1/analytics/{projectId}/feedback/by-page', { key: read })).status).toBe(200);
    expect(
      (
        await call('GET', '/v1/analytics/{projectId}/feedback/by-page', {
          key: read,
          path: `/v1/analytics/${projectId}/feedback/by-page?status=open`,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v1/analytics/{projectId}/searches', { key: read })).status).toBe(200);
    expect((await call('GET', '/v1/analytics/{projectId}/searches')).status).toBe(401);
    expect(
      (
        await call('POST', '/api/feedback', {
          body: JSON.stringify({ projectId, url: 'https://docs.example.com/intro', helpful: true }),
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(202);
    expect((await call('POST', '/api/feedback', { body: '{', contentType: 'text/plain' })).status).toBe(400);
    expect(
      (
        await call('POST', '/api/search', {
          body: JSON.stringify({ projectId, url: 'https://docs.example.com/intro', query: 'auth' }),
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(202);
    expect(
      (await call('POST', '/api/search', { body: JSON.stringify({ projectId }), contentType: 'text/plain' })).status,
    ).toBe(400);

    // agent jobs
    const created = await call('POST', '/v2/agent/{projectId}/job', {
      key: write,
      body: JSON.stringify({ prompt: 'Fix the typo' }),
      contentType: json,
    });
    expect(created.status).toBe(201);
    const jobId = (created.body as { id: string }).id;
    const jobPath = (suffix = '') => `/v2/agent/${projectId}/job/${jobId}${suffix}`;
    expect(
      (
        await call('POST', '/v2/agent/{projectId}/job', {
          key: write,
          body: JSON.stringify({ prompt: '' }),
          contentType: json,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v2/agent/{projectId}/job/{id}', { key: read, path: jobPath() })).status).toBe(200);
    expect(
      (
        await call('GET', '/v2/agent/{projectId}/job/{id}', {
          key: read,
          path: `/v2/agent/${projectId}/job/job_missing`,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/v2/agent/{projectId}/job/{id}/message', {
          key: write,
          path: jobPath('/message'),
          body: JSON.stringify({ prompt: 'Also the intro' }),
          contentType: json,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('GET', '/v2/agent/{projectId}/job/{id}/events', { key: read, path: jobPath('/events') })).status,
    ).toBe(200);
    expect((await call('GET', '/v2/agent/{projectId}/jobs', { key: read })).status).toBe(200);
    expect(
      (
        await call('GET', '/v2/agent/{projectId}/jobs', {
          key: read,
          path: `/v2/agent/${projectId}/jobs?status=sleeping`,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/v2/agent/{projectId}/job', {
          key: write,
          body: JSON.stringify({ prompt: 'Third' }),
          contentType: json,
        })
      ).status,
    ).toBe(429);
    expect(
      (await call('POST', '/v2/agent/{projectId}/job/{id}/archive', { key: write, path: jobPath('/archive') })).status,
    ).toBe(200);
    expect(
      (
        await call('POST', '/v2/agent/{projectId}/job/{id}/message', {
          key: write,
          path: jobPath('/message'),
          body: JSON.stringify({ prompt: 'More' }),
          contentType: json,
        })
      ).status,
    ).toBe(409);

    // automations (this app has none: the service needs the App and the model wired by main.ts)
    expect(
      (
        await call('GET', '/v1/automations/{projectId}/runs', {
          key: read,
          path: `/v1/automations/${projectId}/runs?limit=0`,
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/v1/automations/{projectId}', { key: read })).status).toBe(503);
    expect(
      (
        await call('POST', '/v1/workflow/{projectId}/{automationId}/trigger', {
          key: read,
          path: `/v1/workflow/${projectId}/weekly/trigger`,
        })
      ).status,
    ).toBe(403);
  });

  it("describes the problems queue's and the page story's real responses", async () => {
    const other = (await app.project({ hostnames: ['docs.example.com'] })).id;
    const [otherRead, otherWrite] = [await app.key(other, 'read'), await app.key(other, 'write')];
    const at = new Date(Date.now() - 86_400_000).toISOString();
    await fetch(`${app.url}/v1/analytics/${other}/searches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherWrite}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        ['sso', 'sso', 'scim', 'scim'].map((query, i) => ({ query, visitorId: `v${i}`, timestamp: at })),
      ),
    });
    const call = async (method: string, docPath: string, init: { path: string; key?: string; body?: unknown }) => {
      const response = await fetch(`${app.url}${init.path}`, {
        method,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        headers: {
          ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      });
      return conformance.check({ method, path: docPath, response });
    };
    const base = `/v1/analytics/${other}`;
    const listed = await call('GET', '/v1/analytics/{projectId}/problems', {
      path: `${base}/problems`,
      key: otherRead,
    });
    expect(listed.status).toBe(200);
    const [first, second] = (listed.body as { problems: { id: string }[] }).problems.map((p) => p.id);
    expect(
      (await call('GET', '/v1/analytics/{projectId}/problems', { path: `${base}/problems?kind=x`, key: otherRead }))
        .status,
    ).toBe(400);
    const one = '/v1/analytics/{projectId}/problems/{id}';
    const dismiss = { status: 'dismissed', reason: 'not ours' };
    expect(
      (await call('PATCH', one, { path: `${base}/problems/${second}`, key: otherWrite, body: dismiss })).status,
    ).toBe(200);
    expect((await call('PATCH', one, { path: `${base}/problems/pb_x`, key: otherWrite, body: dismiss })).status).toBe(
      404,
    );
    const fix = '/v1/analytics/{projectId}/problems/fix';
    const fixed = await call('POST', fix, { path: `${base}/problems/fix`, key: otherWrite, body: { ids: [first] } });
    expect(fixed.status).toBe(202);
    // its pull request merged: the job and the outcomes list answer an outcome
    const jobId = (fixed.body as { id: string }).id;
    const merge = {
      jobId,
      projectId: other,
      repository: 'acme/docs',
      number: 3,
      mergedAt: new Date(Date.now() - 3 * 86_400_000),
    };
    await recordDocsMerge({
      db: app.ctx.db,
      clock: app.ctx.clock,
      merge: { ...merge, pages: [{ path: '/limits', change: 'edited' }] },
    });
    const job = await call('GET', '/v2/agent/{projectId}/job/{id}', {
      path: `/v2/agent/${other}/job/${jobId}`,
      key: otherRead,
    });
    expect((job.body as { outcome: { windows: unknown[] } }).outcome.windows).toHaveLength(3);
    const outcomes = '/v1/analytics/{projectId}/outcomes';
    const listedOutcomes = await call('GET', outcomes, { path: `${base}/outcomes`, key: otherRead });
    expect((listedOutcomes.body as { outcomes: unknown[] }).outcomes).toHaveLength(1);
    expect((await call('GET', outcomes, { path: `${base}/outcomes?cursor=x`, key: otherRead })).status).toBe(400);
    expect(
      (await call('POST', fix, { path: `${base}/problems/fix`, key: otherWrite, body: { ids: [second] } })).status,
    ).toBe(409);
    expect(
      (await call('POST', fix, { path: `${base}/problems/fix`, key: otherRead, body: { ids: [first] } })).status,
    ).toBe(403);
    const beacon = JSON.stringify({ projectId: other, url: 'https://docs.example.com/old' });
    const sent = await fetch(`${app.url}/api/miss`, {
      method: 'POST',
      body: beacon,
      headers: { 'content-type': 'text/plain' },
    });
    expect((await conformance.check({ method: 'POST', path: '/api/miss', response: sent })).status).toBe(202);
    const bad = await fetch(`${app.url}/api/miss`, {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'text/plain' },
    });
    expect((await conformance.check({ method: 'POST', path: '/api/miss', response: bad })).status).toBe(400);
    const page = '/v1/analytics/{projectId}/page';
    expect((await call('GET', page, { path: `${base}/page?path=/limits`, key: otherRead })).status).toBe(200);
    expect((await call('GET', page, { path: `${base}/page`, key: otherRead })).status).toBe(400);
  });

  it('is rendered at /docs from locally served assets', async () => {
    const page = await (await fetch(`${app.url}/docs`)).text();
    expect(page).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const asset = await fetch(`${app.url}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect(Number(asset.headers.get('content-length'))).toBeGreaterThan(100_000);
  });
});
