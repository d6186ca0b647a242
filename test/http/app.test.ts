import type { RouteModule } from '../../src/http/app.js';
import { requireApiKey, authenticatedProject } from '../../src/http/authenticate.js';
import { jsonBody } from '../../src/http/json-body.js';
import { healthRoutes } from '../../src/http/routes/health.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../src/http/routes/analytics-ai.js';
import { dashboardRoutes } from '../../src/http/routes/dashboard.js';
import { apiDocsRoutes } from '../../src/http/routes/api-docs.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';

/** A probe route that exercises the shared pieces the real routes use: key auth, JSON bodies, errors. */
const probeRoutes: RouteModule = (router, ctx) => {
  router.get('/v1/probe/:projectId', requireApiKey(ctx), (_req, res) => {
    res.json({ project: authenticatedProject(res).id });
  });
  router.post('/v1/probe/:projectId', requireApiKey(ctx), ...jsonBody({ limit: '1kb' }), (req, res) => {
    res.status(201).json({ got: req.body });
  });
  router.get('/v1/boom', () => {
    throw new Error('secret internal detail');
  });
};

describe.each(PROVIDERS)('HTTP contract on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let otherProjectId: string;
  let readKey: string;
  let writeKey: string;
  beforeAll(async () => {
    app = await startTestApp({ provider, routes: [healthRoutes, probeRoutes] });
    projectId = (await app.project()).id;
    otherProjectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
    writeKey = await app.key(projectId, 'write');
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${app.url}${path}`, {
      ...init,
      headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...(init.headers as object) },
    });

  async function expectError(res: Response, status: number, error: string | RegExp) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as { error: string };
    expect(typeof body.error).toBe('string');
    if (typeof error === 'string') expect(body.error).toBe(error);
    else expect(body.error).toMatch(error);
    return body;
  }

  it('answers with the project for a valid read key, with a request id', async () => {
    const res = await call(`/v1/probe/${projectId}`, { key: readKey });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project: projectId });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('401 for a missing, malformed, unknown or revoked key', async () => {
    await expectError(await call(`/v1/probe/${projectId}`), 401, /^Missing API key/);
    await expectError(
      await call(`/v1/probe/${projectId}`, { headers: { authorization: 'Basic abc' } }),
      401,
      'Authorization header must be "Bearer <API key>"',
    );
    await expectError(await call(`/v1/probe/${projectId}`, { key: 'scribe_sk_short' }), 401, 'Malformed API key');
    await expectError(
      await call(`/v1/probe/${projectId}`, { key: `scribe_sk_${'Z'.repeat(40)}` }),
      401,
      'Unknown API key',
    );
    const revoked = await app.key(projectId, 'read');
    const { revokeApiKey, listApiKeys } = await import('../../src/keys/api-keys.js');
    const info = (await listApiKeys(app.ctx.db)).at(-1)!;
    await revokeApiKey({ db: app.ctx.db, clock: app.ctx.clock, id: info.id });
    await expectError(await call(`/v1/probe/${projectId}`, { key: revoked }), 401, 'API key has been revoked');
  });

  it('401 comes before 404 for unknown projects; 403 for another project or missing scope', async () => {
    await expectError(await call('/v1/probe/prj_unknown'), 401, /^Missing API key/);
    await expectError(
      await call(`/v1/probe/${otherProjectId}`, { key: readKey }),
      403,
      'This API key is not valid for this project',
    );
    await expectError(
      await call(`/v1/probe/${projectId}`, {
        method: 'POST',
        key: readKey,
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      403,
      /needs a write key/,
    );
    const allKey = await app.key(null, 'read');
    await expectError(await call('/v1/probe/prj_unknown', { key: allKey }), 404, 'Project not found');
  });

  it('404 JSON for an unknown route', async () => {
    await expectError(await call('/v9/nothing-here'), 404, 'No route for GET /v9/nothing-here');
  });

  it('accepts JSON; 400 malformed, 415 wrong content type, 413 over the limit', async () => {
    const ok = await call(`/v1/probe/${projectId}`, {
      method: 'POST',
      key: writeKey,
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ got: { a: 1 } });
    const malformed = await expectError(
      await call(`/v1/probe/${projectId}`, {
        method: 'POST',
        key: writeKey,
        body: '{"a":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'Malformed JSON in request body',
    );
    expect(malformed).toHaveProperty('details');
    await expectError(
      await call(`/v1/probe/${projectId}`, {
        method: 'POST',
        key: writeKey,
        body: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'Content-Type must be application/json',
    );
    await expectError(
      await call(`/v1/probe/${projectId}`, {
        method: 'POST',
        key: writeKey,
        body: JSON.stringify({ a: 'x'.repeat(2000) }),
        headers: { 'content-type': 'application/json' },
      }),
      413,
      /^Request body is too large/,
    );
  });

  it('500 hides the error and names the request id', async () => {
    const res = await call('/v1/boom');
    const body = await expectError(res, 500, /^Internal server error \(request id [0-9a-f-]{36}\)$/);
    expect(body.error).toContain(res.headers.get('x-request-id'));
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
  });

  it('healthz and readyz', async () => {
    expect(await (await call('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await call('/readyz')).json()).toEqual({ status: 'ok', database: provider });
  });
});

describe.each(PROVIDERS)('X-Content-Type-Options on %s', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [
        healthRoutes,
        probeRoutes,
        analyticsRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
        dashboardRoutes,
        apiDocsRoutes,
      ],
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('is nosniff on every answer: JSON, errors, CSV, the hot route, scripts, pages and static files', async () => {
    const project = await app.project({ hostnames: ['docs.example.com'] });
    const key = await app.key(project.id, 'write');
    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const event = JSON.stringify({ projectId: project.id, url: 'https://docs.example.com/intro' });
    const requests: [string, RequestInit & { expect: number; type: RegExp }][] = [
      ['/healthz', { expect: 200, type: /^application\/json/ }],
      ['/v9/nothing-here', { expect: 404, type: /^application\/json/ }],
      [`/v1/probe/${project.id}`, { expect: 401, type: /^application\/json/ }],
      ['/v1/boom', { expect: 500, type: /^application\/json/ }],
      [
        `/v1/probe/${project.id}`,
        { method: 'POST', headers: json, body: JSON.stringify({ a: 'x'.repeat(2000) }), expect: 413, type: /json/ },
      ],
      ['/api/github/webhooks', { method: 'POST', body: '{}', expect: 503, type: /^application\/json/ }],
      [
        '/api/event',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: event, expect: 202, type: /^$/ },
      ],
      ['/js/scribe.js', { expect: 200, type: /^application\/javascript/ }],
      [`/v1/analytics/${project.id}/ai/purposes?format=csv`, { headers: auth, expect: 200, type: /^text\/csv/ }],
      [`/v1/analytics/${project.id}/ai/purposes`, { headers: auth, expect: 200, type: /^application\/json/ }],
      ['/dashboard', { expect: 200, type: /^text\/html/ }],
      ['/dashboard/dashboard.css', { expect: 200, type: /^text\/css/ }],
      ['/openapi.json', { expect: 200, type: /^application\/json/ }],
      ['/docs/assets/swagger-ui.css', { expect: 200, type: /^text\/css/ }],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${app.url}${path}`, init);
      await res.arrayBuffer();
      expect({
        path,
        status: res.status,
        type: init.type.test(res.headers.get('content-type') ?? ''),
        nosniff: res.headers.get('x-content-type-options'),
      }).toEqual({ path, status: init.expect, type: true, nosniff: 'nosniff' });
    }
  });
});
