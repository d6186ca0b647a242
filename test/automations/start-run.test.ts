import { PROVIDERS } from '../support/databases.js';
import { Conflict } from '../../src/errors.js';
import { useAutomations } from '../support/automations.js';
import { loadConfig } from '../../src/config.js';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { listMessages } from '../../src/jobs/job-store.js';
import type { Project } from '../../src/projects/projects.js';
import type { Automation } from '../../src/automations/parse-config.js';
import { RUN_STALLED_AFTER_MS, RunStarting, startRun, type RunRequest } from '../../src/automations/start-run.js';
import { claimRun } from '../../src/automations/run-store.js';

const TIDY: Automation = { id: 'tidy', on: { kind: 'schedule', cron: '0 3 * * *' }, prompt: 'Tidy up.', draft: true };
let requests = 0;
const request = (change?: string): RunRequest => ({
  trigger: 'manual',
  dedupeKey: `manual:${++requests}`,
  change,
  summary: `request ${requests}`,
});

describe.each(PROVIDERS)('startRun on %s', (provider) => {
  const bench = useAutomations(provider, { runsPerDay: 3 });
  const start = (project: Project, change?: string) =>
    startRun(bench.deps, { project, automation: TIDY, request: request(change) });

  it("claims a run by its key and asks for a job with the automation's prompt and the change", async () => {
    const project = await bench.project();
    const run = await startRun(bench.deps, {
      project,
      automation: TIDY,
      request: { trigger: 'manual', dedupeKey: 'manual:once', change: 'The change.', summary: 'Once' },
    });
    expect(run).toMatchObject({ status: 'running', seq: 1, summary: 'Once', change: 'The change.' });
    const job = await bench.deps.db.agentJob.findUniqueOrThrow({ where: { id: run!.jobId! } });
    expect(job).toMatchObject({ draft: true, branch: expect.stringContaining('automation-tidy') });
    expect((await listMessages(bench.deps.db, job.id)).map((m) => m.prompt)).toEqual(['Tidy up.\n\nThe change.']);
    const again = startRun(bench.deps, {
      project,
      automation: TIDY,
      request: { trigger: 'manual', dedupeKey: 'manual:once', summary: 'Once more' },
    });
    await expect(again).resolves.toBeNull();
  });

  it('a run that names its job: a new draft job of its own, or a follow-up on the job it names', async () => {
    const project = await bench.project();
    const first = await start(project, 'The first change.');
    // a new job of its own, although the automation's job is still running
    const drafted = await startRun(bench.deps, {
      project,
      automation: { ...TIDY, draft: false },
      request: {
        trigger: 'pull_request',
        dedupeKey: 'pull_request:acme/api#7:draft',
        repository: 'acme/api',
        afterSha: 'b'.repeat(40),
        pullNumber: 7,
        change: 'The pull request.',
        summary: 'acme/api#7',
        job: { new: { draft: true, branchFrom: 'docs for acme/api 7' } },
      },
    });
    expect(drafted).toMatchObject({ trigger: 'pull_request', pullNumber: 7, seq: 1 });
    expect(drafted!.jobId).not.toBe(first!.jobId);
    const job = await bench.deps.db.agentJob.findUniqueOrThrow({ where: { id: drafted!.jobId! } });
    expect(job).toMatchObject({ draft: true, branch: expect.stringContaining('docs-for-acme-api-7') });
    // the automation's next run still follows up on its own job, not on the draft's
    expect((await start(project, 'The second change.'))!.jobId).toBe(first!.jobId);
    // a run naming the draft's job follows up on it (another automation here: this one used its daily cap of 3)
    const followed = await startRun(bench.deps, {
      project,
      automation: { ...TIDY, id: 'tidy-drafts' },
      request: {
        trigger: 'pull_request',
        dedupeKey: `pull_request:acme/api#7:${'c'.repeat(40)}`,
        change: 'New commits.',
        summary: 'acme/api#7 again',
        job: { extend: drafted!.jobId! },
      },
    });
    expect(followed).toMatchObject({ jobId: drafted!.jobId, seq: 2 });
    // batched as push runs are: the draft's run not carried out yet (no worker here) travels with the follow-up
    expect((await listMessages(bench.deps.db, drafted!.jobId!)).map((m) => m.prompt)).toEqual([
      'Tidy up.\n\nThe pull request.',
      'Tidy up.\n\nThe pull request.\n\nNew commits.',
    ]);
  });

  it('a retried trigger takes over a run whose claimer died before asking for its job, and waits while it may still be starting', async () => {
    const project = await bench.project();
    const { db, database } = bench.deps;
    const { clock } = bench;
    const push: RunRequest = {
      trigger: 'push',
      dedupeKey: 'push:acme/api:main:abc123',
      change: 'The push.',
      summary: 'push',
      retried: true,
    };
    // a process claimed the run, then died before asking for its job
    await claimRun({
      db,
      database,
      clock,
      runsPerDay: 3,
      run: {
        projectId: project.id,
        automationId: TIDY.id,
        dedupeKey: push.dedupeKey,
        trigger: 'push',
        summary: 'push',
      },
    });
    await expect(startRun(bench.deps, { project, automation: TIDY, request: push })).rejects.toBeInstanceOf(
      RunStarting,
    );
    clock.advance(RUN_STALLED_AFTER_MS + 1);
    const run = await startRun(bench.deps, { project, automation: TIDY, request: push });
    expect(run).toMatchObject({ status: 'running', seq: 1, jobId: expect.stringMatching(/^job_/) });
    await expect(startRun(bench.deps, { project, automation: TIDY, request: push })).resolves.toBeNull();
    expect(await db.automationRun.count({ where: { dedupeKey: push.dedupeKey } })).toBe(1);
    expect(await db.agentJob.count({ where: { id: run!.jobId! } })).toBe(1);
  });

  it('a retried trigger that takes over a run whose claimer died after asking for its job finds that job, not a second one', async () => {
    const project = await bench.project();
    const { db } = bench.deps;
    const { clock } = bench;
    const push = (n: number): RunRequest => ({
      trigger: 'push',
      dedupeKey: `push:acme/api:main:sha${n}`,
      change: `Push ${n}.`,
      summary: `push ${n}`,
      retried: true,
    });
    /** the state a crash between asking for the job and recording it on the run leaves */
    const forgetJobOf = (id: string) => db.automationRun.update({ where: { id }, data: { jobId: null, seq: null } });
    const first = (await startRun(bench.deps, { project, automation: TIDY, request: push(1) }))!;
    await forgetJobOf(first.id);
    clock.advance(RUN_STALLED_AFTER_MS + 1);
    const adopted = await startRun(bench.deps, { project, automation: TIDY, request: push(1) });
    expect(adopted).toMatchObject({ id: first.id, jobId: first.jobId, seq: 1 });
    expect(await db.agentJob.count({ where: { projectId: project.id } })).toBe(1);

    // the same for a run that added a message to the automation's active job
    const second = (await startRun(bench.deps, { project, automation: TIDY, request: push(2) }))!;
    expect(second).toMatchObject({ jobId: first.jobId, seq: 2 });
    await forgetJobOf(second.id);
    clock.advance(RUN_STALLED_AFTER_MS + 1);
    const again = await startRun(bench.deps, { project, automation: TIDY, request: push(2) });
    expect(again).toMatchObject({ id: second.id, jobId: first.jobId, seq: 2 });
    expect((await listMessages(db, first.jobId!)).map((m) => m.seq)).toEqual([1, 2]);
  });

  it('adds later runs to the job while it is active, each message carrying the changes not carried out yet', async () => {
    const project = await bench.project();
    const first = await start(project, 'Change A.');
    // a run of the job has carried out the first message; the job is active again, or still
    await bench.deps.db.agentJob.update({ where: { id: first!.jobId! }, data: { handledSeq: 1 } });
    const second = await start(project, 'Change B.');
    const third = await start(project, 'Change C.');
    expect([second, third]).toMatchObject([
      { jobId: first!.jobId, seq: 2 },
      { jobId: first!.jobId, seq: 3 },
    ]);
    expect((await listMessages(bench.deps.db, first!.jobId!)).map((m) => m.prompt)).toEqual([
      'Tidy up.\n\nChange A.',
      'Tidy up.\n\nChange B.',
      'Tidy up.\n\nChange B.\n\nChange C.',
    ]);
  });

  it('asks for a new job once the last one finished with no pull request open', async () => {
    const project = await bench.project();
    const first = await start(project);
    await bench.deps.db.agentJob.update({ where: { id: first!.jobId! }, data: { status: 'completed' } });
    const second = await start(project);
    expect(second).toMatchObject({ seq: 1, status: 'running' });
    expect(second!.jobId).not.toBe(first!.jobId);
  });

  it('fails a run whose last pull request GitHub cannot be read for, answering what GitHub said, never a 500', async () => {
    const project = await bench.project();
    const first = await start(project);
    await bench.deps.db.agentJob.update({ where: { id: first!.jobId! }, data: { status: 'completed', prNumber: 7 } });
    bench.host.failNext('GET', /\/pulls\/7$/, 403, 'Resource not accessible by integration');
    const refused = await start(project).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Conflict);
    expect((refused as Error).message).toContain(`the automation's last pull request in ${project.repository}`);
    bench.host.failNext('GET', /\/pulls\/7$/, 404);
    // a pull request GitHub no longer has is no pull request to add to: a new job
    const next = await start(project);
    expect(next).toMatchObject({ seq: 1, status: 'running' });
    expect(next!.jobId).not.toBe(first!.jobId);
  });

  it('skips a run over the daily cap, saying why, and asks for no job', async () => {
    const project = await bench.project();
    for (let i = 0; i < 3; i++) await start(project);
    const over = await start(project);
    expect(over).toMatchObject({
      status: 'skipped',
      jobId: null,
      reason: 'over the daily cap of 3 runs for this automation (AUTOMATION_RUNS_PER_DAY)',
    });
    // a day later the cap has room again
    bench.clock.advance(24 * 3_600_000 + 1);
    expect(await start(project)).toMatchObject({ status: 'running' });
  });

  it('of ten runs asked for at once, starts as many as the cap allows, all on one job, and skips the others', async () => {
    const project = await bench.project();
    const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => start(project, `Change ${i}.`)));
    const started = runs.filter((r) => r?.status === 'running');
    expect(started).toHaveLength(3);
    expect(runs.filter((r) => r?.status === 'skipped')).toHaveLength(7);
    // one job (one pull request) carries them: the first asks for it, the others follow up on it
    expect(new Set(started.map((r) => r!.jobId))).toEqual(new Set([started[0]!.jobId]));
    expect(started.map((r) => r!.seq).sort()).toEqual([1, 2, 3]);
    expect(await bench.deps.db.agentJob.count({ where: { projectId: project.id } })).toBe(1);
  });

  it('records a run the job service refuses as skipped, with its reason', async () => {
    const project = await bench.project();
    const jobs = createJobRequests({
      db: bench.deps.db,
      clock: bench.clock,
      jobs: loadConfig({}).jobs,
      missing: ['set ANTHROPIC_API_KEY for the model'],
      wake: () => undefined,
    });
    const run = await startRun({ ...bench.deps, jobs }, { project, automation: TIDY, request: request() });
    expect(run).toMatchObject({
      status: 'skipped',
      jobId: null,
      reason: 'Agent jobs are not configured on this server: set ANTHROPIC_API_KEY for the model',
    });
  });
});
