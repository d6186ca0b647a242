import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import type { JobRecord } from '../../src/jobs/job-store.js';
import type { RunOutcome } from '../../src/jobs/run-types.js';
import { claimRun, runsOfJob, updateRun, type AutomationRun } from '../../src/automations/run-store.js';
import { settleRuns } from '../../src/automations/on-run-end.js';

describe.each(PROVIDERS)('settleRuns on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');
  let jobs = 0;

  /** A job (only its id matters here) with runs carried out as messages 1, 2, …; `null` leaves a run without one. */
  async function jobWithRuns(seqs: (number | null)[]): Promise<{ job: JobRecord; runs: AutomationRun[] }> {
    const job = { id: `job_${++jobs}` } as JobRecord;
    const runs = [];
    for (const [i, seq] of seqs.entries()) {
      const run = await claimRun({
        db: database.db,
        database: database.target,
        runsPerDay: 50,
        clock,
        run: {
          projectId: 'prj_1',
          automationId: 'docs',
          dedupeKey: `${job.id}:${i}`,
          trigger: 'push',
          summary: `r${i}`,
        },
      });
      runs.push(await updateRun({ db: database.db, clock, id: run!.id, data: { jobId: job.id, seq } }));
    }
    return { job, runs };
  }
  const outcome = (handledSeq: number, sha: string | null, prLink: string | null): RunOutcome => ({
    handledSeq,
    sha,
    prLink,
    prNumber: prLink ? 7 : null,
    title: 't',
    summary: 's',
  });
  const statuses = async (job: JobRecord) =>
    (await runsOfJob(database.db, job.id)).map((r) => [r.status, r.reason, r.prLink]);

  it('fails every run still waiting on a job whose run failed, with its error', async () => {
    const { job } = await jobWithRuns([1, 2]);
    await settleRuns({ db: database.db, clock }, { job, error: 'The model refused' });
    expect(await statuses(job)).toEqual([
      ['failed', 'The model refused', null],
      ['failed', 'The model refused', null],
    ]);
  });

  it('settles the runs up to the last message the run handled; a later one waits for the next run', async () => {
    const { job } = await jobWithRuns([1, 2, 3]);
    const pr = 'https://github.test/acme/docs/pull/7';
    await settleRuns({ db: database.db, clock }, { job, outcome: outcome(2, 'abc', pr) });
    expect(await statuses(job)).toEqual([
      ['pull_request_opened', null, pr],
      ['pull_request_opened', null, pr],
      ['running', null, null],
    ]);
    // the next run of the job adds to the pull request an earlier run opened
    await settleRuns({ db: database.db, clock }, { job, outcome: outcome(3, 'def', pr) });
    expect((await statuses(job))[2]).toEqual(['pull_request_updated', null, pr]);
  });

  it('is no changes when the run committed nothing, or committed with no pull request', async () => {
    const nothing = await jobWithRuns([1]);
    await settleRuns({ db: database.db, clock }, { job: nothing.job, outcome: outcome(1, null, null) });
    expect(await statuses(nothing.job)).toEqual([['no_changes', null, null]]);
    const noPullRequest = await jobWithRuns([1]);
    await settleRuns({ db: database.db, clock }, { job: noPullRequest.job, outcome: outcome(1, 'abc', null) });
    expect(await statuses(noPullRequest.job)).toEqual([['no_changes', null, null]]);
  });

  it('leaves alone the runs of other jobs and settled runs, and a job no automation started', async () => {
    const { job, runs } = await jobWithRuns([1, 2]);
    await updateRun({ db: database.db, clock, id: runs[0].id, data: { status: 'skipped', reason: 'over the cap' } });
    const other = await jobWithRuns([1]);
    await settleRuns({ db: database.db, clock }, { job, error: 'boom' });
    expect(await statuses(job)).toEqual([
      ['skipped', 'over the cap', null],
      ['failed', 'boom', null],
    ]);
    expect(await statuses(other.job)).toEqual([['running', null, null]]);
    await expect(
      settleRuns({ db: database.db, clock }, { job: { id: 'job_none' } as JobRecord, error: 'boom' }),
    ).resolves.toBeUndefined();
  });
});
