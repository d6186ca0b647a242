import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import {
  claimReview,
  finishReview,
  findReview,
  findReviewComment,
  latestReview,
  recordCheckRun,
  renewReview,
  saveReviewComment,
} from '../../src/reviews/review-store.js';

describe.each(PROVIDERS)('review store on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-24T12:00:00.000Z');
  let shas = 0;
  const key = () => ({
    projectId: 'prj_1',
    automationId: 'review-api',
    repository: 'Acme/API',
    headSha: `${++shas}`.padStart(40, 'a'),
  });
  const claim = (k: ReturnType<typeof key>, owner: string) =>
    claimReview({ db: database.db, clock, key: k, number: 7, owner, leaseMs: 30_000 });

  it('lets one of many concurrent claimants review a commit; the others find it busy, then done', async () => {
    const k = key();
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => claim(k, owner)));
    expect(results.filter((r) => 'claimed' in r)).toHaveLength(1);
    expect(results.filter((r) => 'busy' in r)).toHaveLength(3);
    const index = results.findIndex((r) => 'claimed' in r);
    const winner = results[index] as { claimed: { id: string } };
    const owner = ['a', 'b', 'c', 'd'][index];
    await recordCheckRun({ db: database.db, clock, id: winner.claimed.id, checkRunId: '5000000001' });
    expect(
      await finishReview({
        db: database.db,
        clock,
        id: winner.claimed.id,
        owner: 'someone-else',
        status: 'completed',
        conclusion: 'neutral',
        title: 't',
        pageCount: 1,
        findings: '{}',
      }),
    ).toBe(false);
    expect(
      await finishReview({
        db: database.db,
        clock,
        id: winner.claimed.id,
        owner,
        status: 'completed',
        conclusion: 'neutral',
        title: '1 docs page may need an update',
        pageCount: 1,
        findings: '{"findings":[]}',
      }),
    ).toBe(true);
    const again = await claim(k, 'e');
    expect(again).toMatchObject({ done: { status: 'completed', checkRunId: '5000000001', repository: 'acme/api' } });
    expect(await latestReview({ db: database.db, ...k, number: 7 })).toMatchObject({ id: winner.claimed.id });
  });

  it('hands a review whose claimant stopped renewing to the next claimant, keeping its check run', async () => {
    const k = key();
    const first = await claim(k, 'dead');
    if (!('claimed' in first)) throw new Error('not claimed');
    await recordCheckRun({ db: database.db, clock, id: first.claimed.id, checkRunId: '5000000002' });
    expect(await claim(k, 'next')).toHaveProperty('busy');
    clock.advance(31_000);
    const taken = await claim(k, 'next');
    expect(taken).toMatchObject({ claimed: { id: first.claimed.id, checkRunId: '5000000002' } });
    expect(await renewReview({ db: database.db, clock, id: first.claimed.id, owner: 'dead', leaseMs: 30_000 })).toBe(
      false,
    );
    expect(await renewReview({ db: database.db, clock, id: first.claimed.id, owner: 'next', leaseMs: 30_000 })).toBe(
      true,
    );
    expect(await findReview(database.db, k)).toMatchObject({ status: 'pending' });
  });

  it('keeps one comment per pull request and automation: a second first comment loses', async () => {
    const k = { projectId: 'prj_1', automationId: 'review-api', repository: 'acme/api', number: 9 };
    const save = (commentId: string, first: boolean) =>
      saveReviewComment({ db: database.db, clock, key: k, comment: { commentId, state: 'open', headSha: 'x' }, first });
    const [a, b] = await Promise.all([save('11', true), save('12', true)]);
    expect([a, b].sort()).toEqual([false, true]);
    const kept = (await findReviewComment(database.db, k))!.commentId;
    expect(['11', '12']).toContain(kept);
    await saveReviewComment({
      db: database.db,
      clock,
      key: k,
      comment: { commentId: kept, state: 'resolved', headSha: 'y' },
      first: false,
    });
    expect(await findReviewComment(database.db, { ...k, repository: 'ACME/api' })).toEqual({
      commentId: kept,
      state: 'resolved',
      headSha: 'y',
    });
  });
});
