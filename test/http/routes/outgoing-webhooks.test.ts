import { PROVIDERS } from '../../support/databases.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { outgoingWebhookRoutes } from '../../../src/http/routes/outgoing-webhooks.js';
import { buildOpenApi } from '../../../src/http/openapi/build-openapi.js';
import { apiOperations } from '../../../src/http/openapi/api-operations.js';

// Names resolve through a stand-in: hooks.example.test is public, internal.example.test points at a private address.
const resolve = async (host: string) => [
  { address: host.startsWith('internal') ? '10.1.2.3' : '93.184.216.34', family: 4 },
];

describe.each(PROVIDERS)('the outgoing webhook routes on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let write: string;
  let read: string;
  let wakes = 0;
  const conformance = openApiConformance(
    buildOpenApi({ operations: apiOperations, version: 'test' }) as Parameters<typeof openApiConformance>[0],
  );
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const concrete = path.replace('{projectId}', projectId);
    const response = await fetch(`${app.url}${concrete.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]))}`, {
      method: method.toUpperCase(),
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return conformance.check({ method, path, response }) as Promise<{ status: number; body: any }>;
  };
  const vars: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: [outgoingWebhookRoutes({ wake: () => void wakes++, resolve })],
      env: { SCRIBE_WEBHOOKS_ALLOWED_HOSTS: 'allowed.example.test' },
    });
    projectId = (await app.project()).id;
    write = await app.key(projectId, 'write');
    read = await app.key(projectId, 'read');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates, lists, changes, rotates, pings and removes a subscription; its secret is shown only when made', async () => {
    const created = await call('post', '/v1/webhooks/{projectId}', write, {
      url: 'https://hooks.example.test/scribe',
      events: ['job.status_changed', 'job.created', 'job.created'],
      description: 'CI',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'https://hooks.example.test/scribe',
      events: ['job.created', 'job.status_changed'],
      enabled: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    vars.id = created.body.id;
    const listed = await call('get', '/v1/webhooks/{projectId}', read);
    expect(listed.body.subscriptions).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const one = await call('get', '/v1/webhooks/{projectId}/{id}', read);
    expect(one.body).not.toHaveProperty('secret');

    const changed = await call('patch', '/v1/webhooks/{projectId}/{id}', write, { events: ['*'], enabled: false });
    expect(changed.body).toMatchObject({ events: ['*'], enabled: false });
    expect((await call('post', '/v1/webhooks/{projectId}/{id}/test', write)).status).toBe(409);
    await call('patch', '/v1/webhooks/{projectId}/{id}', write, { enabled: true });

    const rotated = await call('post', '/v1/webhooks/{projectId}/{id}/rotate-secret', write);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const before = wakes;
    const ping = await call('post', '/v1/webhooks/{projectId}/{id}/test', write);
    expect(ping.status).toBe(202);
    expect(wakes).toBe(before + 1);
    const deliveries = await call('get', '/v1/webhooks/{projectId}/{id}/deliveries', read);
    expect(deliveries.body).toMatchObject({ hasMore: false, deliveries: [{ id: ping.body.deliveryId, type: 'ping' }] });
    expect(deliveries.body.deliveries[0].status).toBe('pending');
    vars.deliveryId = ping.body.deliveryId;
    const again = await call('post', '/v1/webhooks/{projectId}/{id}/deliveries/{deliveryId}/redeliver', write);
    expect(again).toMatchObject({ status: 409, body: { error: expect.stringMatching(/still being tried/) } });
    vars.deliveryId = 'msg_unknown';
    expect((await call('post', '/v1/webhooks/{projectId}/{id}/deliveries/{deliveryId}/redeliver', write)).status).toBe(
      404,
    );

    expect((await call('delete', '/v1/webhooks/{projectId}/{id}', write)).status).toBe(204);
    expect((await call('get', '/v1/webhooks/{projectId}/{id}', read)).status).toBe(404);
  });

  it.each([
    [{ url: 'not a url', events: ['*'] }, 400, /url: not an absolute URL/],
    [{ url: 'http://hooks.example.test/x', events: ['*'] }, 400, /url: must be https/],
    [{ url: 'https://user:pw@hooks.example.test/x', events: ['*'] }, 400, /credentials/],
    [{ url: 'ftp://hooks.example.test/x', events: ['*'] }, 400, /must be https/],
    [{ url: 'https://127.0.0.1/x', events: ['*'] }, 400, /resolves to 127\.0\.0\.1, a private, loopback/],
    [{ url: 'https://169.254.169.254/latest/meta-data', events: ['*'] }, 400, /169\.254\.169\.254/],
    [{ url: 'https://[::1]/x', events: ['*'] }, 400, /resolves to ::1/],
    [{ url: 'https://[::ffff:10.0.0.1]/x', events: ['*'] }, 400, /private/],
    [{ url: 'https://internal.example.test/x', events: ['*'] }, 400, /resolves to 10\.1\.2\.3/],
    [{ url: 'https://hooks.example.test/x', events: ['job.exploded'] }, 400, /unknown event "job.exploded"/],
    [{ url: 'https://hooks.example.test/x', events: [] }, 400, /events/],
    [{ url: 'https://hooks.example.test/x' }, 400, /events/],
    [{ url: 'https://hooks.example.test/x', events: ['*'], secret: 'mine' }, 400, /secret/],
  ])('refuses %j with %d naming the problem', async (body, status, message) => {
    const answer = await call('post', '/v1/webhooks/{projectId}', write, body);
    expect(answer.status).toBe(status);
    expect(
      [answer.body.error, ...(answer.body.details ?? []).map((d: { message: string }) => d.message)].join(' '),
    ).toMatch(message);
  });

  it('lets an allowed host resolve to a private address, refuses duplicates and more than 20 per project', async () => {
    const allowed = await call('post', '/v1/webhooks/{projectId}', write, {
      url: 'https://allowed.example.test/x',
      events: ['*'],
    });
    expect(allowed.status).toBe(201);
    const duplicate = await call('post', '/v1/webhooks/{projectId}', write, {
      url: 'https://allowed.example.test/x',
      events: ['job.created'],
    });
    expect(duplicate).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/already has a subscription/) },
    });
    const existing = (await call('get', '/v1/webhooks/{projectId}', read)).body.subscriptions.length;
    for (let i = existing; i < 20; i++)
      expect(
        (
          await call('post', '/v1/webhooks/{projectId}', write, {
            url: `https://hooks.example.test/${i}`,
            events: ['*'],
          })
        ).status,
      ).toBe(201);
    const over = await call('post', '/v1/webhooks/{projectId}', write, {
      url: 'https://hooks.example.test/21',
      events: ['*'],
    });
    expect(over).toMatchObject({ status: 409, body: { error: expect.stringMatching(/at most 20/) } });
  });

  it('needs a write key to change anything, an empty change is refused, and other projects see nothing', async () => {
    expect(
      (await call('post', '/v1/webhooks/{projectId}', read, { url: 'https://hooks.example.test/r', events: ['*'] }))
        .status,
    ).toBe(403);
    const created = await call('get', '/v1/webhooks/{projectId}', read);
    vars.id = created.body.subscriptions[0].id;
    expect((await call('patch', '/v1/webhooks/{projectId}/{id}', write, {})).status).toBe(400);
    const other = await app.project();
    const otherKey = await app.key(other.id, 'write');
    const response = await fetch(`${app.url}/v1/webhooks/${other.id}/${vars.id}`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(response.status).toBe(404);
  });
});
