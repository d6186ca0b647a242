import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import type { JobRecord } from '../../src/jobs/job-store.js';
import { claimRun, updateRun, type AutomationRun } from '../../src/automations/run-store.js';
import { automationRunHooks } from '../../src/automations/run-hooks.js';

describe.each(PROVIDERS)('automationRunHooks on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');
  const hooks = () => automationRunHooks({ db: database.db });
  let runs = 0;

  /** A run of automation `api-docs` carried out by `job` as message `seq`. */
  async function run(
    job: JobRecord,
    seq: number,
    fields: Partial<Pick<AutomationRun, 'trigger' | 'repository' | 'afterSha' | 'summary'>> = {},
  ): Promise<AutomationRun> {
    const claimed = await claimRun({
      db: database.db,
      database: database.target,
      runsPerDay: 50,
      clock,
      run: {
        projectId: 'prj_1',
        automationId: 'api-docs',
        dedupeKey: `k${++runs}`,
        trigger: 'push',
        summary: `change ${runs}`,
        ...fields,
      },
    });
    return updateRun({ db: database.db, clock, id: claimed!.id, data: { jobId: job.id, seq } });
  }

  it("gives the run the source repository and commit of the job's latest push run", async () => {
    const job = { id: 'job_source' } as JobRecord;
    await run(job, 1, { repository: 'acme/api', afterSha: 'aaa' });
    await run(job, 2, { repository: 'acme/api', afterSha: 'bbb' });
    await run(job, 3, { trigger: 'schedule' });
    expect(await hooks().sourceFor(job)).toEqual({ repository: 'acme/api', sha: 'bbb' });
  });

  it('gives no source to a job with no push run, or that no automation started', async () => {
    const job = { id: 'job_scheduled' } as JobRecord;
    await run(job, 1, { trigger: 'schedule' });
    expect(await hooks().sourceFor(job)).toBeNull();
    expect(await hooks().sourceFor({ id: 'job_api' } as JobRecord)).toBeNull();
  });

  it('lists the changes the pull request covers, in the order they were asked for, leaving out skipped runs', async () => {
    const job = { id: 'job_notes' } as JobRecord;
    await run(job, 1, { summary: '[acme/api@aaa](…) Add --verbose' });
    const skipped = await run(job, 2, { summary: 'over the cap' });
    await updateRun({ db: database.db, clock, id: skipped.id, data: { status: 'skipped' } });
    await run(job, 3, { summary: '[acme/api@ccc](…) Add --quiet' });
    expect(await hooks().pullRequestNotes(job)).toBe(
      '### Covered by this pull request\n\nAutomation `api-docs` keeps this pull request up to date:\n\n' +
        '- [acme/api@aaa](…) Add --verbose\n- [acme/api@ccc](…) Add --quiet',
    );
  });

  it('has no notes for a job no automation started: the pull request lists its prompts', async () => {
    expect(await hooks().pullRequestNotes({ id: 'job_api' } as JobRecord)).toBeNull();
  });
});
