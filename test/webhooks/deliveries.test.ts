import { findDelivery, pruneDeliveries, recordDelivery } from '../../src/webhooks/deliveries.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';

describe.each(PROVIDERS)('webhook delivery records on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');

  it('exactly one of many concurrent receivers of the same delivery id gets to process it', async () => {
    const db = database.db;
    const work = { payload: '{"action":"created"}', installationId: 7 };
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        recordDelivery({ db, clock, id: 'same-id', event: 'issue_comment', action: 'created', work }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await recordDelivery({ db, clock, id: 'same-id', event: 'issue_comment', action: 'created', work })).toBe(
      false,
    );
    expect(await findDelivery(db, 'same-id')).toMatchObject({ event: 'issue_comment', status: 'received' });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: 'same-id' } });
    expect(row).toMatchObject({ payload: work.payload, installationId: 7, attempts: 0 });
  });

  it('stores an event no handler takes as ignored at once, without its payload', async () => {
    const db = database.db;
    await recordDelivery({
      db,
      clock,
      id: 'a-ping',
      event: 'ping',
      action: null,
      work: { ignored: 'ping is not handled' },
    });
    expect(await findDelivery(db, 'a-ping')).toMatchObject({
      status: 'ignored',
      outcome: 'ping is not handled',
      processedAt: clock(),
    });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: 'a-ping' } })).toMatchObject({ payload: null });
  });

  it('forgets only deliveries older than the cut-off', async () => {
    const db = database.db;
    await recordDelivery({
      db,
      clock: () => new Date('2026-09-01T00:00:00.000Z'),
      id: 'old',
      event: 'ping',
      action: null,
      work: { ignored: 'ping is not handled' },
    });
    await recordDelivery({
      db,
      clock: () => new Date('2026-11-21T00:00:00.000Z'),
      id: 'recent',
      event: 'ping',
      action: null,
      work: { ignored: 'ping is not handled' },
    });
    expect(await pruneDeliveries({ db, before: new Date('2026-10-23T00:00:00.000Z') })).toBe(1);
    expect(await findDelivery(db, 'old')).toBeNull();
    expect(await findDelivery(db, 'recent')).not.toBeNull();
  });
});
