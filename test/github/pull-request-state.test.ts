import { pullRequestStates, recordPullRequestState } from '../../src/github/pull-request-state.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';

describe.each(PROVIDERS)('pull request state of jobs on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('is the last recorded state of the job’s current pull request only', async () => {
    const db = database.db;
    const clock = fixedClock('2026-11-22T01:00:00.000Z');
    await recordPullRequestState({
      db,
      clock,
      jobId: 'job_a',
      repository: 'acme/docs',
      number: 3,
      state: { state: 'closed', merged: false, mergedAt: null },
    });
    await recordPullRequestState({
      db,
      clock,
      jobId: 'job_a',
      repository: 'acme/docs',
      number: 3,
      state: { state: 'closed', merged: true, mergedAt: '2026-11-22T00:59:00Z' },
    });
    const states = await pullRequestStates(db, [
      { id: 'job_a', prNumber: 3 },
      { id: 'job_b', prNumber: 4 },
      { id: 'job_c', prNumber: null },
    ]);
    expect(states).toEqual(
      new Map([['job_a', { state: 'closed', merged: true, mergedAt: '2026-11-22T00:59:00.000Z' }]]),
    );
    // A follow-up after the close opened pull request 5: the closed one no longer describes the job.
    expect((await pullRequestStates(db, [{ id: 'job_a', prNumber: 5 }])).size).toBe(0);
  });
});
