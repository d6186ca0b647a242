import type { Db } from '../db/client.js';
import { LeaseQueue, type LeaseHolder } from '../db/lease-queue.js';
import { randomId } from '../ids.js';
import { ALL_EVENTS } from './event-types.js';
import { RETRY_WINDOW_MS } from './retry-schedule.js';

/** The outbox as a lease queue: a `pending` event waits to be fanned out. */
const EVENTS = new LeaseQueue({ table: 'WebhookEvent', waiting: 'pending', orderBy: 'createdAt' });

/**
 * Fans claimed outbox events out: one message per enabled subscription of the event's project that asks for its type,
 * written in the transaction that removes the event (written once, even if this process dies half-way: the event is
 * then claimed again after its lease). Returns the number of messages written.
 */
export async function dispatchEvents(holder: LeaseHolder & { db: Db; limit: number }): Promise<number> {
  const claimed = await EVENTS.claim(holder);
  if (!claimed.length) return 0;
  const { db } = holder;
  const events = await db.webhookEvent.findMany({ where: { id: { in: claimed.map((c) => c.id) } } });
  const subscriptions = await db.webhookSubscription.findMany({
    where: { projectId: { in: [...new Set(events.map((e) => e.projectId))] }, enabled: true },
    select: { id: true, projectId: true, events: true },
  });
  const now = holder.clock();
  let written = 0;
  for (const event of events) {
    const to = subscriptions.filter((s) => {
      if (s.projectId !== event.projectId) return false;
      const wanted = JSON.parse(s.events) as string[];
      return wanted.includes(ALL_EVENTS) || wanted.includes(event.type);
    });
    written += await db.$transaction(async (tx) => {
      const { count } = await tx.webhookEvent.deleteMany({ where: EVENTS.held(event.id, holder.owner) });
      if (count !== 1) return 0;
      await tx.webhookMessage.createMany({
        data: to.map((s) => ({
          id: randomId('msg'),
          subscriptionId: s.id,
          projectId: event.projectId,
          type: event.type,
          data: event.data,
          eventAt: event.createdAt,
          status: 'pending',
          retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
          createdAt: now,
        })),
      });
      return to.length;
    });
  }
  return written;
}
