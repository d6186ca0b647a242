import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import type { DeliveryStatus } from './deliveries.js';

/**
 * The queue over WebhookDelivery: a `received` delivery whose lease has ended (or never began) needs processing.
 * A claim takes a lease and counts an attempt; the holder renews it while it works; a dead holder's lease simply
 * ends and another claim (on any replica) takes the delivery again. Every write checks the owner.
 */
export interface DeliveryQueueParams {
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  workerId: string;
  leaseMs: number;
}

/** Claims after which a delivery that still did not finish is `failed` (a lost lease counts as an attempt). */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** The wait before the n-th retry: 5 s, 20 s, 80 s, … capped at 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 4 ** Math.max(0, attempts - 1), 10 * 60_000);
}

export interface ClaimedDelivery {
  id: string;
  event: string;
  installationId: number | null;
  payload: string;
  attempts: number;
}

const CLAIM_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

/** Claims up to `limit` deliveries; PostgreSQL locks rows with SKIP LOCKED, SQLite uses a compare-and-set update. */
export async function claimDeliveries(params: DeliveryQueueParams & { limit: number }): Promise<ClaimedDelivery[]> {
  const { db, clock, workerId, leaseMs, limit } = params;
  if (limit <= 0) return [];
  const now = clock();
  const lease = { leaseOwner: workerId, leaseExpiresAt: new Date(now.getTime() + leaseMs), attempts: { increment: 1 } };
  const select = { id: true, event: true, installationId: true, payload: true, attempts: true } as const;
  const claimed =
    params.database.provider === 'postgresql'
      ? await db.$transaction(async (tx) => {
          const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
            `SELECT "id" FROM "WebhookDelivery"
              WHERE "status" = 'received' AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < $1::timestamp(3))
              ORDER BY "receivedAt" ASC LIMIT $2 FOR UPDATE SKIP LOCKED`,
            now.toISOString(),
            limit,
          );
          const ids = rows.map((r) => r.id);
          if (!ids.length) return [];
          await tx.webhookDelivery.updateMany({ where: { id: { in: ids } }, data: lease });
          return tx.webhookDelivery.findMany({ where: { id: { in: ids } }, select });
        }, CLAIM_TRANSACTION)
      : await db.$transaction(async (tx) => {
          const candidates = await tx.webhookDelivery.findMany({
            where: { status: 'received', OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] },
            orderBy: { receivedAt: 'asc' },
            take: limit,
            select: { id: true, leaseExpiresAt: true },
          });
          const rows = [];
          for (const c of candidates) {
            const { count } = await tx.webhookDelivery.updateMany({
              where: { id: c.id, status: 'received', leaseExpiresAt: c.leaseExpiresAt },
              data: lease,
            });
            if (count === 1) rows.push(await tx.webhookDelivery.findUniqueOrThrow({ where: { id: c.id }, select }));
          }
          return rows;
        }, CLAIM_TRANSACTION);
  const usable: ClaimedDelivery[] = [];
  for (const row of claimed) {
    if (row.attempts > MAX_DELIVERY_ATTEMPTS || row.payload === null) {
      // Every attempt so far lost its lease (the process died each time): give up with the reason.
      await finishClaimed({
        ...params,
        id: row.id,
        status: 'failed',
        outcome:
          row.payload === null
            ? 'its payload is gone (stored before durable deliveries); not processed'
            : `gave up after ${MAX_DELIVERY_ATTEMPTS} attempts that never finished (each process stopped mid-way)`,
      });
      continue;
    }
    usable.push({ ...row, payload: row.payload });
  }
  return usable;
}

/** Extends the holder's lease; false when it was lost (taken over, or already finished). */
export async function renewDeliveryLease(params: DeliveryQueueParams & { id: string }): Promise<boolean> {
  const { db, clock, workerId, leaseMs, id } = params;
  const { count } = await db.webhookDelivery.updateMany({
    where: { id, leaseOwner: workerId, status: 'received' },
    data: { leaseExpiresAt: new Date(clock().getTime() + leaseMs) },
  });
  return count === 1;
}

/** Ends a claimed delivery: the outcome is kept, the payload is dropped. False when the lease was lost meanwhile. */
export async function finishClaimed(
  params: DeliveryQueueParams & { id: string; status: Exclude<DeliveryStatus, 'received'>; outcome: string },
): Promise<boolean> {
  const { db, clock, workerId, id } = params;
  const { count } = await db.webhookDelivery.updateMany({
    where: { id, leaseOwner: workerId, status: 'received' },
    data: {
      status: params.status,
      outcome: params.outcome.slice(0, 500),
      processedAt: clock(),
      payload: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    },
  });
  return count === 1;
}

/**
 * A failed attempt: retried after a backoff while attempts remain and the error may pass (`final` says it will not),
 * else `failed` with the error. Returns what happened, or 'lost' when the lease was no longer held.
 */
export async function failAttempt(
  params: DeliveryQueueParams & { id: string; attempts: number; error: string; final?: boolean },
): Promise<'retry' | 'failed' | 'lost'> {
  const { db, clock, workerId, id, attempts, error } = params;
  if (params.final || attempts >= MAX_DELIVERY_ATTEMPTS) {
    const ended = await finishClaimed({
      ...params,
      status: 'failed',
      outcome: `failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error}`,
    });
    return ended ? 'failed' : 'lost';
  }
  const { count } = await db.webhookDelivery.updateMany({
    where: { id, leaseOwner: workerId, status: 'received' },
    data: {
      outcome: `attempt ${attempts} failed: ${error}`.slice(0, 500),
      leaseOwner: null,
      leaseExpiresAt: new Date(clock().getTime() + retryDelayMs(attempts)),
    },
  });
  return count === 1 ? 'retry' : 'lost';
}
