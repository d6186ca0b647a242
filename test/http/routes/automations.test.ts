import { PROVIDERS } from '../../support/databases.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { startGitHubHost, type GitHubHost } from '../../support/github-host.js';
import { hostGitHubApp } from '../../support/host-github-app.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { automationRoutes } from '../../../src/http/routes/automations.js';
import { buildOpenApi } from '../../../src/http/openapi/build-openapi.js';
import { apiOperations } from '../../../src/http/openapi/api-operations.js';
import { createAutomations } from '../../../src/automations/automations.js';
import { createJobRequests } from '../../../src/jobs/job-requests.js';
import { findConfig } from '../../../src/automations/config-store.js';

const CONFIG = 'automations:\n  - id: nightly\n    on: { schedule: "0 3 * * *" }\n    prompt: Tidy up.\n';

describe.each(PROVIDERS)('the automation routes on %s, before any config was read from GitHub', (provider) => {
  let host: GitHubHost;
  let app: TestApp;
  let installations = 70;
  const conformance = openApiConformance(
    buildOpenApi({ operations: apiOperations, version: 'test' }) as Parameters<typeof openApiConformance>[0],
  );

  beforeAll(async () => {
    host = await startGitHubHost();
    const { github } = hostGitHubApp(host);
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [
        (router, ctx) =>
          automationRoutes({
            automations: createAutomations({
              db: ctx.db,
              database: ctx.database,
              clock: ctx.clock,
              logger: ctx.logger,
              github,
              jobs: createJobRequests({
                db: ctx.db,
                clock: ctx.clock,
                jobs: ctx.config.jobs,
                missing: [],
                wake: () => undefined,
              }),
              runsPerDay: 50,
              feedback: analytics.readerSignals(),
              // long enough for a first read on a loaded CI machine (0.3 s was not), short enough for the held read below
              firstReadMs: 2000,
            }),
          })(router, ctx),
      ],
    });
  });
  afterAll(async () => {
    await app?.close();
    await host?.close();
  });

  /** a project for `repository`, with the App's installation (which may not include the repository) */
  const project = async (repository: string) => {
    const installationId = ++installations;
    host.addInstallation(installationId, []);
    const created = await app.project({ repository, installationId });
    return { ...created, key: await app.key(created.id, 'write') };
  };
  /** the list and the trigger, each checked against the OpenAPI document */
  const both = async (projectId: string, key: string) => {
    const call = async (method: string, docPath: string, path: string) =>
      conformance.check({
        method,
        path: docPath,
        response: await fetch(`${app.url}${path}`, { method, headers: { authorization: `Bearer ${key}` } }),
      });
    return [
      await call('GET', '/v1/automations/{projectId}', `/v1/automations/${projectId}`),
      await call(
        'POST',
        '/v1/workflow/{projectId}/{automationId}/trigger',
        `/v1/workflow/${projectId}/nightly/trigger`,
      ),
    ];
  };

  it('answers 409 naming the docs repository when GitHub does not show it to the App, and reads it once installed', async () => {
    const docs = await project('acme/docs-not-installed');
    const error = {
      error: 'The docs repository acme/docs-not-installed was not found on GitHub (is the GitHub App installed on it?)',
    };
    expect(await both(docs.id, docs.key)).toEqual([
      { status: 409, body: error },
      { status: 409, body: error },
    ]);
    expect(await findConfig(app.ctx.db, docs.id)).toBeNull();

    host.createRepository('acme/docs-not-installed', { 'index.md': '# Docs\n', '.scribe/automations.yml': CONFIG });
    host.addInstallation(docs.installationId!, ['acme/docs-not-installed']);
    const [listed] = await both(docs.id, docs.key);
    expect(listed).toMatchObject({ status: 200, body: { automations: [{ id: 'nightly' }], problems: [] } });
  });

  it('answers 502 saying what GitHub answered when it fails the read', async () => {
    const docs = await project('acme/docs-blocked');
    host.createRepository('acme/docs-blocked', { 'index.md': '# Docs\n' });
    host.addInstallation(docs.installationId!, ['acme/docs-blocked']);
    for (let i = 0; i < 2; i++) host.failNext('GET', /^\/repos\/acme\/docs-blocked$/, 451, 'Repository access blocked');
    const error =
      'GitHub answered 451 while reading the docs repository acme/docs-blocked (Repository access blocked); try again later';
    expect(await both(docs.id, docs.key)).toEqual([
      { status: 502, body: { error } },
      { status: 502, body: { error } },
    ]);
  });

  it('answers 504 when GitHub does not answer in time; the read goes on and answers the next request', async () => {
    const docs = await project('acme/docs-slow');
    host.createRepository('acme/docs-slow', { 'index.md': '# Docs\n', '.scribe/automations.yml': CONFIG });
    host.addInstallation(docs.installationId!, ['acme/docs-slow']);
    const held = host.holdNext('GET', /^\/repos\/acme\/docs-slow$/);
    const error =
      'GitHub did not answer within 2 s while reading the docs repository acme/docs-slow (it may be down or unreachable); try again later';
    const [listed] = await both(docs.id, docs.key);
    expect(listed).toEqual({ status: 504, body: { error } });
    await held.reached;
    held.release();
    const [later] = await both(docs.id, docs.key);
    expect(later).toMatchObject({ status: 200, body: { automations: [{ id: 'nightly' }] } });
  });

  it('lists runs with limit and offset read as plain digits, refusing what Number() alone would take', async () => {
    const docs = await project('acme/docs-runs');
    const runs = (query: string) =>
      fetch(`${app.url}/v1/automations/${docs.id}/runs?${query}`, { headers: { authorization: `Bearer ${docs.key}` } });
    expect((await runs('limit=5&offset=0')).status).toBe(200);
    for (const value of ['1e1', '0x10', ' 5', '+5', '0b11', '5.0', '']) {
      for (const name of ['limit', 'offset']) {
        const refused = await runs(`${name}=${encodeURIComponent(value)}`);
        expect({ value, status: refused.status, body: await refused.json() }).toEqual({
          value,
          status: 400,
          body: { error: 'Invalid query', details: [{ message: `${name}: ${name} must be a whole number` }] },
        });
      }
    }
    const over = await runs('limit=101&offset=99999999999999999999');
    expect(await over.json()).toEqual({
      error: 'Invalid query',
      details: [
        { message: 'limit: limit must be between 1 and 100' },
        { message: `offset: offset must be between 0 and ${Number.MAX_SAFE_INTEGER}` },
      ],
    });
  });
});
