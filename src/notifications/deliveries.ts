import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { Conflict, NotFound } from '../errors.js';
import { PING } from './event-types.js';
import { RETRY_WINDOW_MS } from './retry-schedule.js';
import { getSubscription } from './subscriptions.js';

export interface DeliveryTry {
  attempt: number;
  at: Date;
  durationMs: number;
  responseStatus: number | null;
  /** the first 1 KB of the answer */
  responseBody: string | null;
  error: string | null;
}

/** One event owed to one subscription, and every try of it. */
export interface Delivery {
  id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: Date;
  /** when the next try is due, while pending */
  nextAttemptAt: Date | null;
  endedAt: Date | null;
  tries: DeliveryTry[];
}

/** A subscription's deliveries, newest first, `limit` at a time (`before` is the last id of the previous page). */
export async function listDeliveries(params: {
  db: Db;
  projectId: string;
  subscriptionId: string;
  limit: number;
  before?: string;
}): Promise<{ deliveries: Delivery[]; hasMore: boolean }> {
  const { db } = params;
  await getSubscription(db, params.projectId, params.subscriptionId);
  const rows = await db.webhookMessage.findMany({
    where: { subscriptionId: params.subscriptionId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: params.limit + 1,
    ...(params.before ? { cursor: { id: params.before }, skip: 1 } : {}),
  });
  const page = rows.slice(0, params.limit);
  const attempts = await db.webhookAttempt.findMany({
    where: { messageId: { in: page.map((m) => m.id) } },
    orderBy: { id: 'asc' },
  });
  return {
    hasMore: rows.length > params.limit,
    deliveries: page.map((m) => ({
      id: m.id,
      type: m.type,
      status: m.status as Delivery['status'],
      attempts: m.attempts,
      createdAt: m.createdAt,
      nextAttemptAt: m.status === 'pending' ? (m.leaseOwner ? null : m.dueAt) : null,
      endedAt: m.endedAt,
      tries: attempts
        .filter((a) => a.messageId === m.id)
        .map((a) => ({
          attempt: a.attempt,
          at: a.at,
          durationMs: a.durationMs,
          responseStatus: a.responseStatus,
          responseBody: a.responseBody,
          error: a.error,
        })),
    })),
  };
}

/**
 * Sends a delivery again, now, with the same webhook-id (a receiver that saw it already can tell) and a fresh 24-hour
 * retry window. A delivery still being tried is left to its schedule.
 */
export async function redeliver(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  subscriptionId: string;
  id: string;
}): Promise<void> {
  const { db } = params;
  await getSubscription(db, params.projectId, params.subscriptionId);
  const now = params.clock();
  const { count } = await db.webhookMessage.updateMany({
    where: { id: params.id, subscriptionId: params.subscriptionId, status: { in: ['delivered', 'failed'] } },
    data: {
      status: 'pending',
      endedAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      dueAt: now,
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
    },
  });
  if (count === 1) return;
  const exists = await db.webhookMessage.findFirst({
    where: { id: params.id, subscriptionId: params.subscriptionId },
  });
  if (!exists) throw new NotFound('Delivery not found');
  throw new Conflict('The delivery is still being tried; it can be sent again once it is delivered or failed');
}

/** Queues a `ping` to the subscription (a turned-off subscription is sent nothing, a ping included). */
export async function sendPing(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  subscriptionId: string;
}): Promise<{ id: string }> {
  const subscription = await getSubscription(params.db, params.projectId, params.subscriptionId);
  if (!subscription.enabled) throw new Conflict('The subscription is turned off; enable it to send a ping');
  const now = params.clock();
  const id = randomId('msg');
  await params.db.webhookMessage.create({
    data: {
      id,
      subscriptionId: subscription.id,
      projectId: subscription.projectId,
      type: PING,
      data: JSON.stringify({ subscriptionId: subscription.id }),
      eventAt: now,
      status: 'pending',
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
      dueAt: now,
      createdAt: now,
    },
  });
  return { id };
}
