import { findDelivery, recordDelivery } from '../../src/webhooks/deliveries.js';
import {
  claimDeliveries,
  failAttempt,
  finishClaimed,
  MAX_DELIVERY_ATTEMPTS,
  renewDeliveryLease,
  retryDelayMs,
  type DeliveryQueueParams,
} from '../../src/webhooks/delivery-queue.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';

const LEASE_MS = 30_000;

describe.each(PROVIDERS)('the webhook delivery queue on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');
  const worker = (workerId: string): DeliveryQueueParams => ({
    db: database.db,
    database: database.target,
    clock,
    workerId,
    leaseMs: LEASE_MS,
  });
  const store = (id: string) =>
    recordDelivery({
      db: database.db,
      clock,
      id,
      event: 'push',
      action: null,
      work: { payload: JSON.stringify({ ref: `refs/heads/${id}` }), installationId: 9 },
    });

  beforeEach(async () => {
    clock.set('2026-11-22T00:00:00.000Z');
    await database.db.webhookDelivery.deleteMany();
  });

  it('concurrent claimers on many workers take each delivery exactly once, with its payload', async () => {
    for (let i = 0; i < 6; i++) await store(`d${i}`);
    const claims = await Promise.all(
      Array.from({ length: 4 }, (_, i) => claimDeliveries({ ...worker(`w${i}`), limit: 6 })),
    );
    const ids = claims.flat().map((c) => c.id);
    expect(ids.sort()).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
    const first = claims.flat().find((c) => c.id === 'd0');
    expect(first).toMatchObject({ event: 'push', installationId: 9, attempts: 1, payload: '{"ref":"refs/heads/d0"}' });
    expect(await claimDeliveries({ ...worker('late'), limit: 6 })).toEqual([]);
  });

  it('a held lease is renewed; a lost lease is claimed again by another worker, and the old holder can no longer end it', async () => {
    await store('lost');
    await claimDeliveries({ ...worker('dead'), limit: 1 });
    clock.advance(LEASE_MS - 1);
    expect(await claimDeliveries({ ...worker('other'), limit: 1 })).toEqual([]);
    expect(await renewDeliveryLease({ ...worker('dead'), id: 'lost' })).toBe(true);
    clock.advance(LEASE_MS + 1);
    const [again] = await claimDeliveries({ ...worker('other'), limit: 1 });
    expect(again).toMatchObject({ id: 'lost', attempts: 2 });
    expect(await renewDeliveryLease({ ...worker('dead'), id: 'lost' })).toBe(false);
    expect(await finishClaimed({ ...worker('dead'), id: 'lost', status: 'done', outcome: 'stale' })).toBe(false);
    expect(await finishClaimed({ ...worker('other'), id: 'lost', status: 'done', outcome: 'ran' })).toBe(true);
    expect(await findDelivery(database.db, 'lost')).toMatchObject({ status: 'done', outcome: 'ran' });
    // the payload is pruned once the delivery is processed; the row stays
    expect(await database.db.webhookDelivery.findUniqueOrThrow({ where: { id: 'lost' } })).toMatchObject({
      payload: null,
      leaseOwner: null,
    });
  });

  it('a failed attempt is retried after a growing backoff, and after the last attempt it is failed with the reason', async () => {
    await store('flaky');
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt++) {
      const [claimed] = await claimDeliveries({ ...worker('w'), limit: 1 });
      expect(claimed.attempts).toBe(attempt);
      expect(await failAttempt({ ...worker('w'), id: 'flaky', attempts: attempt, error: 'GitHub answered 502' })).toBe(
        'retry',
      );
      expect(await findDelivery(database.db, 'flaky')).toMatchObject({
        status: 'received',
        outcome: `attempt ${attempt} failed: GitHub answered 502`,
      });
      clock.advance(retryDelayMs(attempt) - 1);
      expect(await claimDeliveries({ ...worker('w'), limit: 1 })).toEqual([]);
      clock.advance(2);
    }
    expect(retryDelayMs(2)).toBeGreaterThan(retryDelayMs(1));
    const [last] = await claimDeliveries({ ...worker('w'), limit: 1 });
    expect(last.attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    expect(
      await failAttempt({ ...worker('w'), id: 'flaky', attempts: last.attempts, error: 'GitHub answered 502' }),
    ).toBe('failed');
    expect(await findDelivery(database.db, 'flaky')).toMatchObject({
      status: 'failed',
      outcome: `failed after ${MAX_DELIVERY_ATTEMPTS} attempts: GitHub answered 502`,
    });
    expect(await claimDeliveries({ ...worker('w'), limit: 1 })).toEqual([]);
  });

  it('an error that will not pass (final) fails the delivery at its first attempt', async () => {
    await store('refused');
    const [claimed] = await claimDeliveries({ ...worker('w'), limit: 1 });
    expect(
      await failAttempt({ ...worker('w'), id: 'refused', attempts: claimed.attempts, error: 'Not Found', final: true }),
    ).toBe('failed');
    expect(await findDelivery(database.db, 'refused')).toMatchObject({
      status: 'failed',
      outcome: 'failed after 1 attempt: Not Found',
    });
  });

  it('a delivery left received by a version without the queue (no payload) is failed on its claim, saying why', async () => {
    await database.db.webhookDelivery.create({
      data: { id: 'old-style', event: 'push', status: 'received', receivedAt: clock() },
    });
    expect(await claimDeliveries({ ...worker('w'), limit: 1 })).toEqual([]);
    expect(await findDelivery(database.db, 'old-style')).toMatchObject({
      status: 'failed',
      outcome: expect.stringMatching(/^its payload is gone/),
    });
  });

  it('a delivery whose every lease was lost is failed on the claim after the last attempt', async () => {
    await store('crashing');
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      expect(await claimDeliveries({ ...worker(`w${attempt}`), limit: 1 })).toHaveLength(1);
      clock.advance(LEASE_MS + 1);
    }
    expect(await claimDeliveries({ ...worker('last'), limit: 1 })).toEqual([]);
    expect(await findDelivery(database.db, 'crashing')).toMatchObject({
      status: 'failed',
      outcome: expect.stringMatching(/^gave up after 5 attempts/),
    });
  });
});
