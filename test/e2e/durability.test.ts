import { edit, reply, text, type RecordedRequest } from '../support/anthropic-server.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { forTask, leftoverWorkspaces, startE2E, type E2E } from '../support/e2e-harness.js';

const final = (title: string) => reply([text(`Title: ${title}\n\nDone.`)]);
const asks = (marker: string) => (r: RecordedRequest) => JSON.stringify(r.body.messages[0]).includes(marker);

describe.each(PROVIDERS)('durable execution on %s', (provider) => {
  let e2e: E2E;
  beforeAll(async () => {
    // A short lease so a dead worker's job is reclaimed quickly; heartbeats keep live ones.
    e2e = await startE2E(provider, { SCRIBE_JOB_LEASE_SECONDS: '2' });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('a worker killed with SIGKILL mid-job: after a restart the job is resumed to a terminal state', async () => {
    const { anthropic } = e2e;
    anthropic.script([reply([text('…')], { delayMs: 60_000 })], forTask('[sigkill]'));
    const created = await e2e.createJob({ prompt: '[sigkill] Add a troubleshooting page' });
    await waitFor(() => anthropic.requests.some(asks('[sigkill]')), 'the model call');
    await e2e.scribe.kill();
    anthropic.script(
      [
        reply([
          edit({ command: 'create', path: 'troubleshooting.md', file_text: '# Troubleshooting\n\nRestart it.\n' }),
        ]),
        final('Add troubleshooting'),
      ],
      forTask('[sigkill]'),
    );
    e2e.scribe = await e2e.start();
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the resumed job to finish');
    expect(job).toMatchObject({ status: 'completed', error: null });
    expect(e2e.github.readFile('acme/docs', created.source.ref, 'troubleshooting.md')).toBe(
      '# Troubleshooting\n\nRestart it.\n',
    );
    const starts = (await e2e.events(created.id)).filter((e) => e.type === 'run_started');
    expect(starts.map((e) => e.attempt)).toEqual([1, 2]);
    expect(new Set(starts.map((e) => e.worker)).size).toBe(2);
  });

  it('SIGTERM hands a running job back at once: the next process resumes it without waiting for the lease', async () => {
    const { anthropic } = e2e;
    await e2e.scribe.stop();
    e2e.scribe = await e2e.start({ SCRIBE_JOB_LEASE_SECONDS: '600' });
    anthropic.script([reply([text('…')], { delayMs: 60_000 })], forTask('[sigterm]'));
    const created = await e2e.createJob({ prompt: '[sigterm] Add a FAQ page' });
    await waitFor(() => anthropic.requests.some(asks('[sigterm]')), 'the model call');
    // A client following the job's events must not hold the shutdown up: its stream ends.
    const stream = await fetch(`${e2e.scribe.url}/v2/agent/${e2e.projectId}/job/${created.id}/events`, {
      headers: { authorization: `Bearer ${e2e.key}`, accept: 'text/event-stream' },
    });
    const reader = stream.body!.getReader();
    await reader.read();
    expect(await e2e.scribe.stop()).toBe(0);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    expect(leftoverWorkspaces(e2e)).toEqual([]);
    anthropic.script(
      [reply([edit({ command: 'create', path: 'faq.md', file_text: '# FAQ\n' })]), final('Add a FAQ')],
      forTask('[sigterm]'),
    );
    e2e.scribe = await e2e.start({ SCRIBE_JOB_LEASE_SECONDS: '600' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the released job to finish');
    expect(job.status).toBe('completed');
    const types = (await e2e.events(created.id)).map((e) => e.type);
    expect(types.filter((t) => t === 'released')).toHaveLength(1);
    expect(types.filter((t) => t === 'run_started')).toHaveLength(2);
  });
});

describe('two Scribe processes on one PostgreSQL', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E('postgresql');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('share the work and never run a job twice', async () => {
    const second = await e2e.start();
    // Every job creates its own page; the first model turn is slow enough that one process cannot take them all.
    e2e.anthropic.fallback((request) => {
      const task = JSON.stringify(request.body.messages[0]);
      const name = task.match(/\[share-(\d+)\]/)?.[1] ?? 'x';
      const answered = request.body.messages.length > 1;
      return answered
        ? { content: [text(`Title: Page ${name}\n\nAdded page ${name}.`)] }
        : {
            content: [edit({ command: 'create', path: `pages/p${name}.md`, file_text: `# Page ${name}\n` })],
            delayMs: 300,
          };
    });
    const jobs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        e2e.createJob({ prompt: `[share-${i}] Add page ${i}` }, { on: i % 2 ? second : e2e.scribe }),
      ),
    );
    // eight jobs queue behind two processes' few workers: under a loaded CI (a clone alone took 5.7 s) the last ends
    // more than 30 s after it was created, so the queue gets longer than one job's wait
    const done = await Promise.all(
      jobs.map((j) => e2e.waitForJob(j.id, (x) => x.status !== 'active', `job ${j.id}`, undefined, 90_000)),
    );
    expect(done.map((j) => j.status)).toEqual(Array(8).fill('completed'));
    expect(new Set(done.map((j) => j.prLink)).size).toBe(8);
    const workers = new Set<unknown>();
    for (const job of jobs) {
      const starts = (await e2e.events(job.id)).filter((e) => e.type === 'run_started');
      expect(starts).toHaveLength(1);
      workers.add(starts[0].worker);
    }
    expect(workers.size).toBe(2);
    // two model calls per job, each job's first call exactly once
    for (let i = 0; i < 8; i++)
      expect(
        e2e.anthropic.requests.filter((r) => asks(`[share-${i}]`)(r) && r.body.messages.length === 1),
      ).toHaveLength(1);
    expect(e2e.github.pulls).toHaveLength(8);
  }, 150_000);
});
