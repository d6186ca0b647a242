import type { Db } from '../db/client.js';
import { LeaseQueue, type LeaseHolder } from '../db/lease-queue.js';
import { DISABLE_AFTER_MS, retryDelayMs, type Verdict } from './retry-schedule.js';
import { KEPT_RESPONSE_BYTES, type SendResult } from './send-message.js';

/**
 * WebhookMessage as a lease queue: a `pending` message whose time has come (`dueAt`) is sent. Claims go by
 * subscription, reading its earliest due messages by the (subscriptionId, status, dueAt) index: neither the sort of
 * every pending message nor another receiver's backlog stands between a healthy receiver and its next message.
 */
export const MESSAGES = new LeaseQueue({
  table: 'WebhookMessage',
  waiting: 'pending',
  orderBy: 'createdAt',
  due: 'dueAt',
});

type MessageRow = Awaited<ReturnType<Db['webhookMessage']['findUniqueOrThrow']>>;
export type SubscriptionRow = Awaited<ReturnType<Db['webhookSubscription']['findUniqueOrThrow']>>;
export interface ClaimedMessage {
  message: MessageRow;
  subscription: SubscriptionRow;
}

/** Claims up to `limit` of one subscription's messages due now, earliest due first. */
export async function claimMessages(
  holder: LeaseHolder & { db: Db; limit: number; subscription: SubscriptionRow },
): Promise<ClaimedMessage[]> {
  const { subscription } = holder;
  const claimed = await MESSAGES.claim({ ...holder, only: { column: 'subscriptionId', value: subscription.id } });
  if (!claimed.length) return [];
  const messages = await holder.db.webhookMessage.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    orderBy: [{ dueAt: 'asc' }, { id: 'asc' }],
  });
  return messages.map((message) => ({ message, subscription }));
}

export type Settled = 'delivered' | 'failed' | 'retry' | 'lost';

/**
 * Records one try and what follows from it, in one transaction written only while the lease is held: the attempt
 * row; the message delivered, failed, or given back to the queue for its next try (after the schedule's wait or the
 * receiver's Retry-After, never past its retry window); and the subscription's failing streak, which turns it off
 * once it has lasted five days.
 */
export async function settleAttempt(
  holder: LeaseHolder & {
    db: Db;
    message: MessageRow;
    result: SendResult | { error: string; durationMs: 0 };
    verdict: Verdict;
    random?: () => number;
  },
): Promise<Settled> {
  const { db, message, result, verdict } = holder;
  const now = holder.clock();
  let retryAt: Date | null = null;
  let ends: 'delivered' | 'failed' | null = 'ends' in verdict ? verdict.ends : null;
  let why = 'why' in verdict ? verdict.why : null;
  if (!('ends' in verdict)) {
    const wait = verdict.retryInMs ?? retryDelayMs(message.attempts, holder.random);
    retryAt = new Date(now.getTime() + wait);
    if (retryAt > message.retryUntil) {
      ends = 'failed';
      why = `${verdict.why}; gave up after ${message.attempts} tries over 24 hours`;
    }
  }
  return db.$transaction(async (tx) => {
    const txHolder = { ...holder, db: tx };
    const attempt = {
      messageId: message.id,
      subscriptionId: message.subscriptionId,
      attempt: message.attempts,
      at: now,
      durationMs: result.durationMs,
      responseStatus: 'status' in result ? result.status : null,
      responseBody: 'status' in result ? result.body.slice(0, KEPT_RESPONSE_BYTES) : null,
      error: 'error' in result ? result.error : (why ?? null),
    };
    let settled: Settled;
    if (ends) {
      const { count } = await tx.webhookMessage.updateMany({
        where: MESSAGES.held(message.id, holder.owner),
        data: { status: ends, endedAt: now, leaseOwner: null, leaseExpiresAt: null },
      });
      settled = count === 1 ? ends : 'lost';
    } else
      settled = (await MESSAGES.release({ ...txHolder, id: message.id, retryAt: retryAt ?? now })) ? 'retry' : 'lost';
    if (settled === 'lost') return settled;
    await tx.webhookAttempt.create({ data: attempt });
    if (settled === 'delivered')
      await tx.webhookSubscription.updateMany({
        where: { id: message.subscriptionId, failingSince: { not: null } },
        data: { failingSince: null },
      });
    else {
      await tx.webhookSubscription.updateMany({
        where: { id: message.subscriptionId, failingSince: null },
        data: { failingSince: now },
      });
      await tx.webhookSubscription.updateMany({
        where: {
          id: message.subscriptionId,
          enabled: true,
          failingSince: { lte: new Date(now.getTime() - DISABLE_AFTER_MS) },
        },
        data: {
          enabled: false,
          disabledReason: `every delivery failed for 5 days (last: ${why ?? 'error'}); turned off by Scribe`,
          updatedAt: now,
        },
      });
    }
    return settled;
  });
}

/** Ends a message that can no longer be sent (its subscription was removed or turned off) without trying it. */
export async function dropMessage(holder: LeaseHolder & { db: Db; id: string; why: string }): Promise<void> {
  await holder.db.$transaction(async (tx) => {
    const { count } = await tx.webhookMessage.updateMany({
      where: MESSAGES.held(holder.id, holder.owner),
      data: { status: 'failed', endedAt: holder.clock(), leaseOwner: null, leaseExpiresAt: null },
    });
    if (count === 1) {
      const m = await tx.webhookMessage.findUniqueOrThrow({ where: { id: holder.id } });
      await tx.webhookAttempt.create({
        data: {
          messageId: m.id,
          subscriptionId: m.subscriptionId,
          attempt: m.attempts,
          at: holder.clock(),
          durationMs: 0,
          error: holder.why,
        },
      });
    }
  });
}
