import { outcomeEvents } from '../../src/notifications/problem-events.js';
import { assignJob, claimForFix, releaseFix, setStatus, settleJob } from '../../src/problems/problem-store.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';

describe.each(PROVIDERS)('problem and outcome events on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');
  let projectId: string;
  let n = 0;
  beforeEach(() => {
    projectId = `prj_pe_${provider}_${++n}`;
  });

  /**
   * The project's outbox since the last call (then emptied): each event's type and what it says, in a stable order
   * (events of one change share its time).
   */
  const take = async () => {
    const rows = await database.db.webhookEvent.findMany({ where: { projectId } });
    await database.db.webhookEvent.deleteMany({ where: { projectId } });
    const key = (e: { type: string; id?: string }) => `${e.id ?? ''} ${e.type === 'problem.created' ? 0 : 1}${e.type}`;
    return rows
      .map((e) => {
        const data = JSON.parse(e.data) as {
          problem?: { id: string; status: string };
          previousStatus?: string;
          outcome?: unknown;
        };
        return {
          type: e.type,
          ...(data.problem ? { id: data.problem.id, status: data.problem.status } : {}),
          ...(data.previousStatus ? { previousStatus: data.previousStatus } : {}),
          ...(data.outcome ? { outcome: data.outcome } : {}),
        };
      })
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  };

  it('records problem.created when a problem is first stored, and problem.status_changed on every PATCH move', async () => {
    const db = database.db;
    await setStatus({ db, clock, projectId, id: 'p1', kind: 'search-gap', status: 'dismissed', reason: 'noise' });
    const created = await db.webhookEvent.findFirstOrThrow({ where: { projectId, type: 'problem.created' } });
    expect(await take()).toEqual([
      { type: 'problem.created', id: 'p1', status: 'dismissed' },
      { type: 'problem.status_changed', id: 'p1', status: 'dismissed', previousStatus: 'open' },
    ]);
    clock.advance(1_000);
    await setStatus({ db, clock, projectId, id: 'p1', kind: 'search-gap', status: 'dismissed', reason: 'still noise' });
    expect(await take()).toEqual([]);
    clock.advance(1_000);
    await setStatus({ db, clock, projectId, id: 'p1', kind: 'search-gap', status: 'open' });
    expect(await take()).toEqual([
      { type: 'problem.status_changed', id: 'p1', status: 'open', previousStatus: 'dismissed' },
    ]);
    expect(JSON.parse(created.data)).toEqual({
      problem: {
        id: 'p1',
        kind: 'search-gap',
        status: 'dismissed',
        jobId: null,
        reason: 'noise',
        updatedAt: '2026-11-22T00:00:00.000Z',
      },
    });
  });

  it('records a fix taking problems, giving them back, and its pull request merging or closing', async () => {
    const db = database.db;
    const problems = [
      { id: 'a', kind: 'missing-page' as const },
      { id: 'b', kind: 'stale-page' as const },
    ];
    await setStatus({ db, clock, projectId, id: 'b', kind: 'stale-page', status: 'open' });
    expect(await take()).toEqual([{ type: 'problem.created', id: 'b', status: 'open' }]);
    const first = await claimForFix({ db, clock, projectId, problems, fixKey: 'fix_1' });
    if (!first.claimed) throw new Error('not claimed');
    const taken = [
      { type: 'problem.created', id: 'a', status: 'in_progress' },
      { type: 'problem.status_changed', id: 'a', status: 'in_progress', previousStatus: 'open' },
      { type: 'problem.status_changed', id: 'b', status: 'in_progress', previousStatus: 'open' },
    ];
    expect(await take()).toEqual(taken);
    await releaseFix({ db, projectId, fixKey: 'fix_1', taken: first.taken });
    expect(await take()).toEqual([
      { type: 'problem.status_changed', id: 'a', status: 'open', previousStatus: 'in_progress' },
      { type: 'problem.status_changed', id: 'b', status: 'open', previousStatus: 'in_progress' },
    ]);
    await claimForFix({ db, clock, projectId, problems, fixKey: 'fix_2' });
    expect(await take()).toEqual(taken);
    await db.problemState.updateMany({ where: { projectId, fixKey: 'fix_2' }, data: { jobId: 'job_1' } });
    await settleJob({ db, clock, jobId: 'job_1', merged: true });
    expect(await take()).toEqual([
      { type: 'problem.status_changed', id: 'a', status: 'fixed', previousStatus: 'in_progress' },
      { type: 'problem.status_changed', id: 'b', status: 'fixed', previousStatus: 'in_progress' },
    ]);
    await assignJob({ db, clock, projectId, problems: [{ id: 'c', kind: 'search-gap' }], jobId: 'job_2' });
    expect(await take()).toEqual([
      { type: 'problem.created', id: 'c', status: 'in_progress' },
      { type: 'problem.status_changed', id: 'c', status: 'in_progress', previousStatus: 'open' },
    ]);
    await settleJob({ db, clock, jobId: 'job_2', merged: false });
    expect(await take()).toEqual([
      { type: 'problem.status_changed', id: 'c', status: 'open', previousStatus: 'in_progress' },
    ]);
  });

  it('records nothing when the change is rolled back with its transaction', async () => {
    const db = database.db;
    await expect(
      db.$transaction(async (tx) => {
        await outcomeEvents(clock)(tx, {
          merge: { jobId: 'job_9', projectId, repository: 'acme/docs', number: 9, mergedAt: clock() },
          days: 7,
          outcome: { verdict: 'improved' },
          problems: [],
        });
        throw new Error('the settle failed');
      }),
    ).rejects.toThrow('the settle failed');
    expect(await take()).toEqual([]);
  });

  it('records outcome.ready and the problems a completed window moved', async () => {
    await database.db.$transaction(async (tx) =>
      outcomeEvents(clock)(tx, {
        merge: { jobId: 'job_3', projectId, repository: 'acme/docs', number: 3, mergedAt: clock() },
        days: 7,
        outcome: { verdict: 'improved', windows: [] },
        problems: [{ projectId, id: 'd', kind: 'search-gap', from: 'fixed', to: 'verified' }],
      }),
    );
    expect(await take()).toEqual([
      {
        type: 'outcome.ready',
        outcome: { jobId: 'job_3', repository: 'acme/docs', number: 3, days: 7, verdict: 'improved', windows: [] },
      },
      { type: 'problem.status_changed', id: 'd', status: 'verified', previousStatus: 'fixed' },
    ]);
  });
});
