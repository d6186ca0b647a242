import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { addProject } from '../../src/projects/projects.js';
import { addMessage, archiveJob, createJob, getJob, listEvents } from '../../src/jobs/job-store.js';
import { statusesBefore } from '../../src/jobs/job-status.js';
import { claimJobs, failRun, finishRun, releaseLease, renewLease, type QueueParams } from '../../src/jobs/job-queue.js';

describe.each(PROVIDERS)('job queue on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock();
  let projectId: string;
  const queue = (workerId: string, leaseMs = 30_000): QueueParams => ({
    db: database.db,
    database: database.target,
    clock,
    workerId,
    leaseMs,
  });
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

  beforeEach(async () => {
    clock.set('2026-11-21T10:00:00.000Z');
    await database.db.agentJob.deleteMany({});
    projectId = (
      await addProject({
        db: database.db,
        clock,
        repository: `acme/docs-${Math.random().toString(36).slice(2)}`,
        ref: 'main',
      })
    ).id;
  });

  it('gives each job to exactly one of many concurrent claimers', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 12; i++) ids.add((await newJob(`job ${i}`)).id);
    const claims = await Promise.all(Array.from({ length: 6 }, (_, w) => claimJobs({ ...queue(`w${w}`), limit: 3 })));
    const claimed = claims.flat().map((j) => j.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(new Set(claimed)).toEqual(ids);
    expect(claims.flat().every((j) => j.attempts === 1)).toBe(true);
    expect(await claimJobs({ ...queue('late'), limit: 5 })).toEqual([]);
  });

  it('hands a job to another worker only after its lease expired, and the old holder then loses it', async () => {
    const job = await newJob();
    expect((await claimJobs({ ...queue('a', 1_000), limit: 1 })).map((j) => j.id)).toEqual([job.id]);
    clock.advance(900);
    expect(await claimJobs({ ...queue('b'), limit: 1 })).toEqual([]);
    expect(await renewLease({ ...queue('a', 1_000), jobId: job.id })).toBe('held');
    clock.advance(800);
    expect(await claimJobs({ ...queue('b'), limit: 1 })).toEqual([]);
    clock.advance(300);
    const [reclaimed] = await claimJobs({ ...queue('b'), limit: 1 });
    expect(reclaimed).toMatchObject({ id: job.id, attempts: 2 });
    expect(await renewLease({ ...queue('a'), jobId: job.id })).toBe('lost');
    expect(await failRun({ ...queue('a'), jobId: job.id, error: 'x', stage: 'agent' })).toBe(false);
    expect((await getJob(database.db, projectId, job.id)).status).toBe('active');
  });

  it('tells the holder when its job was archived', async () => {
    const job = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await archiveJob({ db: database.db, clock, projectId, jobId: job.id });
    expect(await renewLease({ ...queue('a'), jobId: job.id })).toBe('archived');
    const result = { prNumber: null, prLink: null, title: null, summary: null };
    expect(await finishRun({ ...queue('a'), jobId: job.id, handledSeq: 1, result })).toBe('dropped');
    expect((await getJob(database.db, projectId, job.id)).status).toBe('archived');
  });

  it('completes a run, or keeps the job queued when a follow-up arrived during it', async () => {
    const job = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await addMessage({ db: database.db, clock, projectId, jobId: job.id, prompt: 'Also fix the title' });
    const result = { prNumber: 3, prLink: 'http://x/pull/3', title: 't', summary: 's' };
    expect(await finishRun({ ...queue('a'), jobId: job.id, handledSeq: 1, result })).toBe('requeued');
    expect(await getJob(database.db, projectId, job.id)).toMatchObject({
      status: 'active',
      prLink: 'http://x/pull/3',
      handledSeq: 1,
      attempts: 0,
    });
    const [again] = await claimJobs({ ...queue('b'), limit: 1 });
    expect(again.id).toBe(job.id);
    expect(await finishRun({ ...queue('b'), jobId: job.id, handledSeq: 2, result })).toBe('completed');
    expect(await getJob(database.db, projectId, job.id)).toMatchObject({ status: 'completed', runsCompleted: 2 });
  });

  // A poller that sees a job end must also see the event that says how: the status and the closing event are one
  // write. Before, the worker stored the event after the status, and a poll in between saw `failed` with no reason.
  it('stores the closing event with the status change, and none when the run no longer holds the job', async () => {
    const lastEvent = async (id: string) => (await listEvents({ db: database.db, jobId: id })).at(-1);
    const result = { prNumber: 3, prLink: 'http://x/pull/3', title: 't', summary: 's' };
    const failed = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    expect(await failRun({ ...queue('a'), jobId: failed.id, error: 'GitHub rejected the push', stage: 'push' })).toBe(
      true,
    );
    expect(await lastEvent(failed.id)).toMatchObject({
      type: 'failed',
      stage: 'push',
      error: 'GitHub rejected the push',
    });
    expect(await failRun({ ...queue('a'), jobId: failed.id, error: 'again', stage: 'push' })).toBe(false);
    expect((await listEvents({ db: database.db, jobId: failed.id })).filter((e) => e.type === 'failed')).toHaveLength(
      1,
    );

    const done = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await addMessage({ db: database.db, clock, projectId, jobId: done.id, prompt: 'Also fix the title' });
    expect(await finishRun({ ...queue('a'), jobId: done.id, handledSeq: 1, result })).toBe('requeued');
    expect(await lastEvent(done.id)).toMatchObject({ type: 'requeued', prLink: 'http://x/pull/3' });
    await claimJobs({ ...queue('b'), limit: 1 });
    expect(await finishRun({ ...queue('b'), jobId: done.id, handledSeq: 2, result })).toBe('completed');
    expect(await lastEvent(done.id)).toMatchObject({ type: 'completed', prLink: 'http://x/pull/3' });

    const archived = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await archiveJob({ db: database.db, clock, projectId, jobId: archived.id });
    const before = await listEvents({ db: database.db, jobId: archived.id });
    expect(await finishRun({ ...queue('a'), jobId: archived.id, handledSeq: 1, result })).toBe('dropped');
    expect(await listEvents({ db: database.db, jobId: archived.id })).toEqual(before);
  });

  it('releases a lease at shutdown without counting the attempt', async () => {
    const job = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await releaseLease({ ...queue('a'), jobId: job.id });
    const [again] = await claimJobs({ ...queue('b'), limit: 1 });
    expect(again).toMatchObject({ id: job.id, attempts: 1 });
  });

  it('re-activates a finished job on a follow-up and refuses one for an archived job', async () => {
    const job = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await failRun({ ...queue('a'), jobId: job.id, error: 'The model was overloaded', stage: 'agent' });
    expect(await getJob(database.db, projectId, job.id)).toMatchObject({
      status: 'failed',
      error: 'The model was overloaded',
      errorStage: 'agent',
    });
    const reactivated = await addMessage({ db: database.db, clock, projectId, jobId: job.id, prompt: 'try again' });
    expect(reactivated).toMatchObject({ job: { status: 'active', error: null }, seq: 2 });
    expect(await claimJobs({ ...queue('b'), limit: 1 })).toHaveLength(1);
    await archiveJob({ db: database.db, clock, projectId, jobId: job.id });
    await expect(addMessage({ db: database.db, clock, projectId, jobId: job.id, prompt: 'again' })).rejects.toThrow(
      /archived/,
    );
  });

  it('changes a status only along the allowed moves, whatever races it', async () => {
    expect(statusesBefore('active')).toEqual(['completed', 'failed']);
    expect(statusesBefore('archived')).toEqual(['active', 'completed', 'failed']);
    const archived = await newJob();
    await claimJobs({ ...queue('a'), limit: 1 });
    await archiveJob({ db: database.db, clock, projectId, jobId: archived.id });
    expect(await failRun({ ...queue('a'), jobId: archived.id, error: 'late', stage: 'agent' })).toBe(false);
    expect(await getJob(database.db, projectId, archived.id)).toMatchObject({ status: 'archived', error: null });
    // A follow-up and an archive of a completed job at once: whichever goes first, the job ends archived, once.
    for (let i = 0; i < 6; i++) {
      const job = await newJob(`race ${i}`);
      await claimJobs({ ...queue('b'), limit: 1 });
      await finishRun({
        ...queue('b'),
        jobId: job.id,
        handledSeq: 1,
        result: { prNumber: null, prLink: null, title: null, summary: null },
      });
      await Promise.allSettled([
        addMessage({ db: database.db, clock, projectId, jobId: job.id, prompt: 'more' }),
        archiveJob({ db: database.db, clock, projectId, jobId: job.id }),
        archiveJob({ db: database.db, clock, projectId, jobId: job.id }),
      ]);
      expect((await getJob(database.db, projectId, job.id)).status).toBe('archived');
      expect((await listEvents({ db: database.db, jobId: job.id })).filter((e) => e.type === 'archived')).toHaveLength(
        1,
      );
    }
  });
});
