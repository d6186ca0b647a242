import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import type { Database } from '../../src/db/client.js';
import { loadConfig, type JobsConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { addProject } from '../../src/projects/projects.js';
import { addMessage, archiveJob, createJob, getJob, listEvents, listMessages } from '../../src/jobs/job-store.js';
import { claimJobs } from '../../src/jobs/job-queue.js';
import { JobFailure } from '../../src/jobs/job-failure.js';
import { JobWorker } from '../../src/jobs/worker.js';
import type { JobRunner, RunOutcome } from '../../src/jobs/run-types.js';
import { waitFor } from '../support/wait-for.js';
import { jobDuration, leaseLosses } from '../../src/metrics/metrics.js';

const jobsConfig = (overrides: Partial<JobsConfig> = {}): JobsConfig => ({
  ...loadConfig({}).jobs,
  heartbeatMs: 25,
  pollMs: 50,
  leaseMs: 5_000,
  ...overrides,
});

/** A runner whose runs the test releases one by one, recording what each was given. */
function controlledRunner() {
  const runs: {
    jobId: string;
    prompts: number;
    signal: AbortSignal;
    release(outcome?: Partial<RunOutcome> | Error): void;
  }[] = [];
  let db: Database['db'];
  const runner: JobRunner = async ({ job, signal, emit }) => {
    await emit('stage', { stage: 'agent' });
    const messages = await listMessages(db, job.id);
    return new Promise<RunOutcome>((resolve, reject) => {
      const release = (outcome: Partial<RunOutcome> | Error = {}) =>
        outcome instanceof Error
          ? reject(outcome)
          : resolve({
              handledSeq: messages.at(-1)!.seq,
              sha: 'abc123',
              prNumber: 1,
              prLink: 'http://ghe/acme/docs/pull/1',
              title: 't',
              summary: 's',
              ...outcome,
            });
      signal.addEventListener('abort', () => reject(new JobFailure('agent', 'stopped')));
      runs.push({ jobId: job.id, prompts: messages.length, signal, release });
    });
  };
  return { runner, runs, bind: (d: Database['db']) => (db = d) };
}

describe.each(PROVIDERS)('job worker on %s', (provider) => {
  const database = useTestDatabase(provider);
  let projectId: string;
  const workers: JobWorker[] = [];
  const clock = () => new Date();
  const newJob = (prompt = 'Fix the typo') =>
    createJob({
      db: database.db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt,
    });
  const worker = (runner: JobRunner, jobs = jobsConfig()) => {
    const w = new JobWorker({
      db: database.db,
      database: database.target,
      clock,
      logger: createLogger('silent'),
      jobs,
      runner,
    });
    workers.push(w);
    w.start();
    return w;
  };
  const job = (id: string) => getJob(database.db, projectId, id);

  beforeEach(async () => {
    projectId = (
      await addProject({
        db: database.db,
        clock,
        repository: `acme/docs-${Math.random().toString(36).slice(2)}`,
        ref: 'main',
      })
    ).id;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await database.db.agentJob.deleteMany({});
  });

  it('runs no more jobs at once than its concurrency, and each to completion', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await newJob(`job ${i}`)).id);
    worker(control.runner, jobsConfig({ concurrency: 2 }));
    await waitFor(() => control.runs.length === 2, 'two runs');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(control.runs).toHaveLength(2);
    for (let released = 0; released < 5; released++) {
      await waitFor(() => control.runs.length > released, `run ${released + 1}`);
      control.runs[released].release();
    }
    for (const id of ids) await waitFor(async () => (await job(id)).status === 'completed', `job ${id} completed`);
    expect(new Set(control.runs.map((r) => r.jobId))).toEqual(new Set(ids));
    const events = await listEvents({ db: database.db, jobId: ids[0] });
    expect(events.map((e) => e.type)).toEqual(['created', 'run_started', 'stage', 'completed']);
    expect(await job(ids[0])).toMatchObject({ prLink: 'http://ghe/acme/docs/pull/1', summary: 's' });
  });

  it('times runs by outcome and counts lease losses in the metrics', async () => {
    const durations = async (outcome: string) =>
      (await jobDuration.get()).values.find(
        (v) => v.metricName === 'scribe_job_duration_seconds_count' && v.labels.outcome === outcome,
      )?.value ?? 0;
    const losses = async () => (await leaseLosses.get()).values[0]?.value ?? 0;
    const before = { completed: await durations('completed'), lost: await durations('lost'), losses: await losses() };
    const control = controlledRunner();
    control.bind(database.db);
    const done = (await newJob('finishes')).id;
    worker(control.runner);
    await waitFor(() => control.runs.length === 1, 'first run');
    control.runs[0].release();
    await waitFor(async () => (await job(done)).status === 'completed', 'completed');
    const stolen = (await newJob('loses its lease')).id;
    await waitFor(() => control.runs.length === 2, 'second run');
    // Another worker took the job over (as after this one stalled past its lease): the next heartbeat notices.
    await database.db.agentJob.update({ where: { id: stolen }, data: { leaseOwner: 'someone-else' } });
    await waitFor(() => control.runs[1].signal.aborted, 'run stopped');
    await waitFor(async () => (await losses()) === before.losses + 1, 'lease loss counted');
    await waitFor(async () => (await durations('lost')) === before.lost + 1, 'lost run timed');
    expect(await durations('completed')).toBe(before.completed + 1);
  });

  it('fails a job with the stage and sentence of its failure', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const { id } = await newJob();
    worker(control.runner);
    await waitFor(() => control.runs.length === 1, 'a run');
    control.runs[0].release(new JobFailure('push', 'GitHub rejected the push'));
    await waitFor(async () => (await job(id)).status === 'failed', 'failed');
    expect(await job(id)).toMatchObject({ error: 'GitHub rejected the push', errorStage: 'push' });
    expect((await listEvents({ db: database.db, jobId: id })).at(-1)).toMatchObject({
      type: 'failed',
      stage: 'push',
      error: 'GitHub rejected the push',
    });
  });

  it('two workers on one database never run the same job', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add((await newJob(`job ${i}`)).id);
    worker(control.runner, jobsConfig({ concurrency: 3 }));
    worker(control.runner, jobsConfig({ concurrency: 3 }));
    let released = 0;
    while (released < 8) {
      await waitFor(() => control.runs.length > released, `run ${released + 1}`);
      control.runs[released++].release();
    }
    for (const id of ids) await waitFor(async () => (await job(id)).status === 'completed', 'completed');
    expect(control.runs.map((r) => r.jobId).sort()).toEqual([...ids].sort());
  });

  it('stops the agent of a job archived while it runs and leaves it archived', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const { id } = await newJob();
    worker(control.runner);
    await waitFor(() => control.runs.length === 1, 'a run');
    await archiveJob({ db: database.db, clock, projectId, jobId: id });
    await waitFor(() => control.runs[0].signal.aborted, 'the agent signal aborted');
    await waitFor(
      async () => (await listEvents({ db: database.db, jobId: id })).some((e) => e.type === 'stopped'),
      'stopped event',
    );
    expect(await job(id)).toMatchObject({ status: 'archived', error: null });
  });

  it('runs a follow-up that arrived mid-run right after, with every instruction', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const { id } = await newJob();
    worker(control.runner);
    await waitFor(() => control.runs.length === 1, 'first run');
    await addMessage({ db: database.db, clock, projectId, jobId: id, prompt: 'And the title' });
    control.runs[0].release({ handledSeq: 1 });
    await waitFor(() => control.runs.length === 2, 'second run');
    expect((await job(id)).status).toBe('active');
    expect(control.runs[1].prompts).toBe(2);
    control.runs[1].release();
    await waitFor(async () => (await job(id)).status === 'completed', 'completed');
  });

  it('hands running jobs back at shutdown, and fails a job whose workers kept dying', async () => {
    const control = controlledRunner();
    control.bind(database.db);
    const { id } = await newJob();
    const w = worker(control.runner);
    await waitFor(() => control.runs.length === 1, 'a run');
    await w.stop();
    expect(control.runs[0].signal.aborted).toBe(true);
    expect(await job(id)).toMatchObject({ status: 'active', attempts: 0 });
    // Three crashed holders: claims that were never finished or released.
    for (let i = 0; i < 3; i++) {
      const deadClock = () => new Date(Date.now() - 60_000 + i * 1_000);
      expect(
        await claimJobs({
          db: database.db,
          database: database.target,
          clock: deadClock,
          workerId: `dead${i}`,
          leaseMs: 1,
          limit: 1,
        }),
      ).toHaveLength(1);
    }
    worker(control.runner, jobsConfig({ maxAttempts: 3 }));
    await waitFor(async () => (await job(id)).status === 'failed', 'failed');
    expect((await job(id)).error).toMatch(/stopped 3 times before finishing/);
    expect(control.runs).toHaveLength(1);
  });
});
