import { edit, reply, text } from '../support/anthropic-server.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { forTask, INSTALLATION_ID, startE2E, type E2E } from '../support/e2e-harness.js';
import { asUser, deliverTo, examplePayload, onRepository, pushPayload } from '../support/github-harness.js';
import type { ScribeProcess } from '../support/scribe-process.js';

const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const CONFIG = `automations:
  - id: api-changes
    on:
      push:
        repository: ${SOURCE_REPO}
        paths: ["src/**"]
    prompt: Update the documentation for the code changes below.
`;
const deliver = (scribe: ScribeProcess, event: string, payload: unknown) => deliverTo(scribe.url, event, payload);

const push = (repository: string, before: string, after: string) =>
  pushPayload({ repository, installationId: INSTALLATION_ID, before, after, commits: [] });

describe.each(PROVIDERS)('webhook deliveries survive SIGKILL on %s', (provider) => {
  let e2e: E2E;
  const deliveryRow = (id: string) => e2e.database.db.webhookDelivery.findUnique({ where: { id } });
  const processed = (id: string) =>
    waitFor(
      async () => {
        const row = await deliveryRow(id);
        return row && row.status !== 'received' ? row : undefined;
      },
      `delivery ${id} to be processed`,
      30_000,
      50,
    );

  beforeAll(async () => {
    // A short lease: the killed process's delivery is claimed again two seconds after it died.
    e2e = await startE2E(provider, { SCRIBE_JOB_LEASE_SECONDS: '2' });
    e2e.github.createRepository(SOURCE_REPO, { 'src/cli.ts': 'export const flags = [];\n' });
    e2e.github.addInstallation(INSTALLATION_ID, [DOCS_REPO, SOURCE_REPO]);
    e2e.github.setPermission(DOCS_REPO, 'writer-wendy', 'write');
    const { before, after } = e2e.github.commitFiles(
      DOCS_REPO,
      'main',
      { '.scribe/automations.yml': CONFIG },
      'Add automations',
    );
    const loaded = await deliver(e2e.scribe, 'push', push(DOCS_REPO, before, after));
    expect(await processed(loaded.id)).toMatchObject({ status: 'done' });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('a push killed right after its 200: after a restart exactly one run and one docs pull request', async () => {
    e2e.anthropic.script(
      [
        reply([edit({ command: 'create', path: 'verbose.md', file_text: '# Verbose\n\nPass `--verbose`.\n' })]),
        reply([text('Title: Document --verbose\n\nAdded a page on --verbose.')]),
      ],
      forTask('Add --verbose flag'),
    );
    const { before, after } = e2e.github.commitFiles(
      SOURCE_REPO,
      'main',
      { 'src/cli.ts': "export const flags = ['--verbose'];\n" },
      'Add --verbose flag',
    );
    // The push's changes are read after the 200: the process dies while that request is on its way.
    const compare = e2e.github.holdNext('GET', /^\/repos\/acme\/api\/compare\//);
    const { status, id } = await deliver(e2e.scribe, 'push', push(SOURCE_REPO, before, after));
    expect(status).toBe(200);
    await compare.reached;
    await e2e.scribe.kill();
    compare.release();
    expect(await e2e.database.db.automationRun.count()).toBe(0);
    expect((await deliveryRow(id))?.payload).toContain(after);

    e2e.scribe = await e2e.start();
    const row = await processed(id);
    expect(row).toMatchObject({ status: 'done', attempts: 2, payload: null, leaseOwner: null });
    expect(row.outcome).toMatch(/api-changes: run arun_\w+ running \(job job_\w+\)/);
    const runs = await e2e.database.db.automationRun.findMany();
    expect(runs).toHaveLength(1);
    const pr = await waitFor(
      () => e2e.github.pulls.find((p) => p.repository === DOCS_REPO && p.title.includes('--verbose')),
      'the docs pull request',
      30_000,
    );
    expect(e2e.github.readFile(DOCS_REPO, pr.head, 'verbose.md')).toContain('--verbose');
    expect(e2e.github.pulls.filter((p) => p.repository === DOCS_REPO)).toHaveLength(1);
    expect(await e2e.database.db.agentJob.count({ where: { branch: { contains: 'automation' } } })).toBe(1);
  });

  it('an issue command killed right after its 200: after a restart exactly one job, one acknowledgement and one pull request', async () => {
    e2e.anthropic.script(
      [
        reply([edit({ command: 'create', path: 'faq.md', file_text: '# FAQ\n' })]),
        reply([text('Title: Add a FAQ\n\nAdded a FAQ page.')]),
      ],
      forTask('[durable] add a FAQ page'),
    );
    const payload = onRepository(
      examplePayload('issue_comment', 'created', (p) => !!p.installation),
      DOCS_REPO,
      INSTALLATION_ID,
    );
    delete payload.issue.pull_request;
    Object.assign(payload.issue, { number: 12, title: 'We need a FAQ', body: '' });
    Object.assign(payload.comment, { id: 9_120_001, body: '@scribe-docs [durable] add a FAQ page' });
    payload.comment.user = asUser('writer-wendy');
    payload.sender = asUser('writer-wendy');
    // Whether the author may ask is checked after the 200: the process dies while that request is on its way.
    const permission = e2e.github.holdNext('GET', /^\/repos\/acme\/docs\/collaborators\/writer-wendy\/permission$/);
    const { status, id } = await deliver(e2e.scribe, 'issue_comment', payload);
    expect(status).toBe(200);
    await permission.reached;
    await e2e.scribe.kill();
    permission.release();
    const jobsBefore = await e2e.database.db.agentJob.count();

    e2e.scribe = await e2e.start();
    const row = await processed(id);
    expect(row).toMatchObject({ status: 'done', attempts: 2, payload: null });
    const jobId = /job (job_\w+) created/.exec(row.outcome ?? '')?.[1];
    expect(jobId).toBeDefined();
    expect(await e2e.database.db.agentJob.count()).toBe(jobsBefore + 1);
    const job = await e2e.waitForJob(jobId!, (j) => j.status !== 'active', 'the command’s job');
    expect(job.status).toBe('completed');
    const onIssue = () => e2e.github.comments.filter((c) => c.repository === DOCS_REPO && c.number === 12);
    await waitFor(() => onIssue().length >= 2 || undefined, 'the acknowledgement and the result', 30_000);
    expect(onIssue().filter((c) => c.body.includes('On it'))).toHaveLength(1);
    expect(e2e.github.pulls.filter((p) => p.html_url === job.prLink)).toHaveLength(1);
  });
});
