import { appendEvent, getJob } from '../../../src/jobs/job-store.js';
import { startTestApp, type TestApp, jobRoutes } from '../../support/test-app.js';
import { PROVIDERS } from '../../support/databases.js';
import { compatibleValidators } from '../../support/compatible-schemas.js';

const FAKE_PEM = '-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----';
const CONFIGURED = {
  APP_ID: '12',
  PRIVATE_KEY: FAKE_PEM,
  ANTHROPIC_API_KEY: 'sk-test',
  GHE_HOST: 'ghe.acme.test',
  SCRIBE_MODELS: 'claude-opus-4-8',
  SCRIBE_JOB_RATE_LIMIT: '40',
};

const validateAgentJob = compatibleValidators().agentJob;

/** `limit` and `offset` values `Number()` reads as numbers, which a listing refuses */
const NOT_DIGITS = ['1e1', '0x10', ' 5', '+5', '0b11', '0o7', '5.0', '5 ', '', '١'];

/** fetch's Response with the loosely typed JSON body these tests inspect */
type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

function expectAgentJob(body: unknown): void {
  const ok = validateAgentJob(body);
  if (!ok) throw new Error(`not an AgentJob: ${JSON.stringify(validateAgentJob.errors)}`);
}

describe.each(PROVIDERS)('agent job API on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let otherProjectId: string;
  let writeKey: string;
  let readKey: string;
  let otherKey: string;
  let queued = 0;

  beforeAll(async () => {
    app = await startTestApp({ provider, routes: [jobRoutes({ wake: () => queued++ })], env: CONFIGURED });
    const project = await app.project({ repository: `acme/docs-${provider}`, ref: 'main' });
    projectId = project.id;
    otherProjectId = (await app.project()).id;
    writeKey = await app.key(projectId, 'write');
    readKey = await app.key(projectId, 'read');
    otherKey = await app.key(otherProjectId, 'write');
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (
    path: string,
    init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<JsonResponse> =>
    fetch(`${app.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
  const create = async (body: unknown, key = writeKey, project = projectId) =>
    call(`/v2/agent/${project}/job`, { key, body });

  it('creates a job: 201, an AgentJob with Scribe fields, queued for the worker', async () => {
    const before = queued;
    const res = await create({ prompt: 'Document the --dry-run flag in the CLI page' });
    expect(res.status).toBe(201);
    const job = await res.json();
    expectAgentJob(job);
    expect(job).toMatchObject({
      status: 'active',
      source: {
        repository: `https://ghe.acme.test/acme/docs-${provider}`,
        ref: expect.stringMatching(/^scribe\/[a-z0-9]{8}-document-the-dry-run-flag-in-the-cli-pag$/),
      },
      model: 'claude-sonnet-4-6',
      prLink: null,
      archivedAt: null,
      error: null,
      summary: null,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(job.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(queued).toBe(before + 1);
    const got = await call(`/v2/agent/${projectId}/job/${job.id}`, { key: readKey });
    expect(got.status).toBe(200);
    // the one difference: a job's own answer says how its merged pull request did (null until it merges)
    expect(await got.json()).toEqual({ ...job, outcome: null });
  });

  it('accepts ref, model and draft, and refuses bad input with details', async () => {
    const ok = await create({ prompt: 'x', ref: 'release/2.0', model: 'claude-opus-4-8', draft: true });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ model: 'claude-opus-4-8' });
    for (const [body, detail] of [
      [{}, /prompt/],
      [{ prompt: '' }, /prompt must not be empty/],
      [{ prompt: 'a'.repeat(20_001) }, /at most 20000/],
      [{ prompt: 'x', model: 'gpt-9' }, /model must be one of claude-sonnet-4-6, claude-opus-4-8/],
      [{ prompt: 'x', ref: 'bad..ref' }, /ref must be a valid branch name/],
      [{ prompt: 'x', draft: 'yes' }, /draft must be true or false/],
    ] as const) {
      const res = await create(body);
      expect(res.status).toBe(400);
      const error = await res.json();
      expect(error.error).toBe(typeof error.error === 'string' ? error.error : '');
      expect(JSON.stringify(error.details)).toMatch(detail);
    }
    expect(
      (
        await call(`/v2/agent/${projectId}/job`, {
          key: writeKey,
          body: 'prompt=x',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call(`/v2/agent/${projectId}/job`, {
          key: writeKey,
          body: '{"prompt":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await create({ prompt: 'x' }, readKey)).status).toBe(403);
    expect((await call(`/v2/agent/${projectId}/job`, { body: { prompt: 'x' } })).status).toBe(401);
  });

  it("takes asDraft, the compatible service's name, as draft; both must agree when both are sent", async () => {
    const draftOf = async (body: Record<string, unknown>) => {
      const res = await create({ prompt: 'Draft or not', ...body });
      expect(res.status).toBe(201);
      return (await getJob(app.ctx.db, projectId, (await res.json()).id)).draft;
    };
    expect(await draftOf({ asDraft: true })).toBe(true);
    expect(await draftOf({ asDraft: false })).toBe(false);
    expect(await draftOf({ draft: true })).toBe(true);
    expect(await draftOf({ draft: true, asDraft: true })).toBe(true);
    expect(await draftOf({})).toBe(false);
    for (const [body, detail] of [
      [{ asDraft: 'yes' }, /asDraft must be true or false/],
      [{ draft: true, asDraft: false }, /draft and asDraft must agree/],
    ] as const) {
      const res = await create({ prompt: 'x', ...body });
      expect(res.status).toBe(400);
      expect(JSON.stringify((await res.json()).details)).toMatch(detail);
    }
  });

  it('answers 404 "Job not found" for unknown jobs and for jobs of another project', async () => {
    const job = await (await create({ prompt: 'mine' })).json();
    for (const res of [
      await call(`/v2/agent/${projectId}/job/job_doesnotexist`, { key: writeKey }),
      await call(`/v2/agent/${otherProjectId}/job/${job.id}`, { key: otherKey }),
      await call(`/v2/agent/${otherProjectId}/job/${job.id}/message`, { key: otherKey, body: { prompt: 'x' } }),
      await call(`/v2/agent/${otherProjectId}/job/${job.id}/archive`, { key: otherKey, method: 'POST' }),
      await call(`/v2/agent/${otherProjectId}/job/${job.id}/events`, { key: otherKey }),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('{"error":"Job not found"}');
    }
  });

  it('follow-ups, archive (idempotent) and 409 for a message to an archived job', async () => {
    const job = await (await create({ prompt: 'first' })).json();
    const followed = await call(`/v2/agent/${projectId}/job/${job.id}/message`, {
      key: writeKey,
      body: { prompt: 'second' },
    });
    expect(followed.status).toBe(200);
    expectAgentJob(await followed.json());
    expect(
      (await call(`/v2/agent/${projectId}/job/${job.id}/message`, { key: writeKey, body: { prompt: '' } })).status,
    ).toBe(400);
    const archived = await call(`/v2/agent/${projectId}/job/${job.id}/archive`, { key: writeKey, method: 'POST' });
    expect(archived.status).toBe(200);
    const body = await archived.json();
    expectAgentJob(body);
    expect(body.status).toBe('archived');
    expect(body.archivedAt).toMatch(/Z$/);
    const again = await (
      await call(`/v2/agent/${projectId}/job/${job.id}/archive`, { key: writeKey, method: 'POST' })
    ).json();
    expect(again.archivedAt).toBe(body.archivedAt);
    const refused = await call(`/v2/agent/${projectId}/job/${job.id}/message`, {
      key: writeKey,
      body: { prompt: 'third' },
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatch(/archived/);
    const events = await (await call(`/v2/agent/${projectId}/job/${job.id}/events`, { key: readKey })).json();
    expect(events.status).toBe('archived');
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['created', 'message', 'archived']);
  });

  it('lists jobs newest first with status filter and pages', async () => {
    const project = await app.project();
    const key = await app.key(project.id, 'write');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await (await create({ prompt: `job ${i}` }, key, project.id)).json()).id);
    await call(`/v2/agent/${project.id}/job/${ids[0]}/archive`, { key, method: 'POST' });
    const all = await (await call(`/v2/agent/${project.id}/jobs`, { key })).json();
    expect(all.jobs.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    expect(all.hasMore).toBe(false);
    all.jobs.forEach(expectAgentJob);
    const page = await (await call(`/v2/agent/${project.id}/jobs?limit=2&offset=0`, { key })).json();
    expect(page).toMatchObject({ hasMore: true });
    expect(page.jobs).toHaveLength(2);
    const archived = await (await call(`/v2/agent/${project.id}/jobs?status=archived`, { key })).json();
    expect(archived.jobs.map((j: { id: string }) => j.id)).toEqual([ids[0]]);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'offset=-1', 'status=done']) {
      expect((await call(`/v2/agent/${project.id}/jobs?${query}`, { key })).status).toBe(400);
    }
    // numbers are digits only, as the analytics listings read them: Number() would take all of these
    for (const [name, value] of NOT_DIGITS.flatMap((v) => [['limit', v] as const, ['offset', v] as const])) {
      const refused = await call(`/v2/agent/${project.id}/jobs?${name}=${encodeURIComponent(value)}`, { key });
      expect({ value, status: refused.status, body: await refused.json() }).toEqual({
        value,
        status: 400,
        body: { error: 'Invalid query', details: [{ message: `${name}: ${name} must be a whole number` }] },
      });
    }
  });

  it('rate-limits creations and follow-ups together per project, with Retry-After', async () => {
    const project = await app.project();
    const key = await app.key(project.id, 'write');
    const first = await (await create({ prompt: 'one' }, key, project.id)).json();
    for (let i = 0; i < 38; i++) expect((await create({ prompt: `more ${i}` }, key, project.id)).status).toBe(201);
    expect(
      (await call(`/v2/agent/${project.id}/job/${first.id}/message`, { key, body: { prompt: 'fortieth' } })).status,
    ).toBe(200);
    const limited = await create({ prompt: 'one too many' }, key, project.id);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await call(`/v2/agent/${project.id}/job/${first.id}/message`, { key, body: { prompt: 'x' } })).status).toBe(
      429,
    );
    // another project has its own budget
    expect((await create({ prompt: 'other' })).status).toBe(201);
  });

  it('streams the step log as server-sent events, live until the job leaves active', async () => {
    const job = await (await create({ prompt: 'stream me' })).json();
    const res = await call(`/v2/agent/${projectId}/job/${job.id}/events`, {
      key: readKey,
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil(/event: created/);
    await appendEvent({
      db: app.ctx.db,
      clock: app.ctx.clock,
      jobId: job.id,
      type: 'tool_call',
      data: { tool: 'str_replace_based_edit_tool', path: 'index.mdx', ok: true },
    });
    await readUntil(/event: tool_call/);
    await call(`/v2/agent/${projectId}/job/${job.id}/archive`, { key: writeKey, method: 'POST' });
    await readUntil(/event: end/);
    expect(text).toMatch(/id: \d+\nevent: tool_call\ndata: \{[^\n]*"path":"index.mdx"/);
    expect(text).toMatch(/event: end\ndata: \{"status":"archived"\}/);
  });
});

describe('agent job API without the App or the model configured', () => {
  it('answers 503 with what to set', async () => {
    const app = await startTestApp({ provider: 'sqlite', routes: [jobRoutes()] });
    try {
      const project = await app.project();
      const key = await app.key(project.id, 'write');
      const res: JsonResponse = await fetch(`${app.url}/v2/agent/${project.id}/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{"prompt":"x"}',
      });
      expect(res.status).toBe(503);
      const { error } = await res.json();
      expect(error).toMatch(/APP_ID/);
      expect(error).toMatch(/ANTHROPIC_API_KEY/);
    } finally {
      await app.close();
    }
  });
});
