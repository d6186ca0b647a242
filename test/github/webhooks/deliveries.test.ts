import { finishDelivery, findDelivery, markInterrupted, pruneDeliveries, recordDelivery } from '../../../src/github/webhooks/deliveries.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';
import { fixedClock } from '../../support/clock.js';

describe.each(PROVIDERS)('webhook delivery records on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');

  it('exactly one of many concurrent receivers of the same delivery id gets to process it', async () => {
    const db = database.db;
    const results = await Promise.all(Array.from({ length: 8 }, () => recordDelivery({ db, clock, id: 'same-id', event: 'issue_comment', action: 'created' })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await recordDelivery({ db, clock, id: 'same-id', event: 'issue_comment', action: 'created' })).toBe(false);
    await finishDelivery({ db, clock, id: 'same-id', status: 'ignored', outcome: 'the App is not mentioned' });
    expect(await findDelivery(db, 'same-id')).toMatchObject({ event: 'issue_comment', action: 'created', status: 'ignored', outcome: 'the App is not mentioned', processedAt: clock() });
  });

  it('marks deliveries a stop cut off as failed, and leaves finished and recent ones alone', async () => {
    const db = database.db;
    const at = (iso: string) => () => new Date(iso);
    await recordDelivery({ db, clock: at('2026-11-21T23:00:00.000Z'), id: 'cut-off', event: 'issue_comment', action: 'created' });
    await recordDelivery({ db, clock: at('2026-11-21T23:00:00.000Z'), id: 'finished', event: 'issue_comment', action: 'created' });
    await finishDelivery({ db, clock: at('2026-11-21T23:00:01.000Z'), id: 'finished', status: 'done', outcome: 'ok' });
    await recordDelivery({ db, clock: at('2026-11-21T23:59:00.000Z'), id: 'in-flight', event: 'issue_comment', action: 'created' });
    expect(await markInterrupted({ db, clock, receivedBefore: new Date('2026-11-21T23:45:00.000Z') })).toBe(1);
    expect(await findDelivery(db, 'cut-off')).toMatchObject({ status: 'failed', outcome: expect.stringMatching(/^interrupted/) });
    expect(await findDelivery(db, 'finished')).toMatchObject({ status: 'done' });
    expect(await findDelivery(db, 'in-flight')).toMatchObject({ status: 'received' });
  });

  it('forgets only deliveries older than the cut-off', async () => {
    const db = database.db;
    await recordDelivery({ db, clock: () => new Date('2026-09-01T00:00:00.000Z'), id: 'old', event: 'ping', action: null });
    await recordDelivery({ db, clock: () => new Date('2026-11-21T00:00:00.000Z'), id: 'recent', event: 'ping', action: null });
    expect(await pruneDeliveries({ db, before: new Date('2026-10-23T00:00:00.000Z') })).toBe(1);
    expect(await findDelivery(db, 'old')).toBeNull();
    expect(await findDelivery(db, 'recent')).not.toBeNull();
  });
});
