import type { Db } from '../db/client.js';
import { LeaseQueue, type LeaseHolder } from '../db/lease-queue.js';
import { randomId } from '../ids.js';
import { ALL_EVENTS } from './event-types.js';
import { renderData, type RenderEvent } from './build-body.js';
import { RETRY_WINDOW_MS } from './retry-schedule.js';

/** The outbox as a lease queue: a `pending` event waits to be fanned out. */
const EVENTS = new LeaseQueue({ table: 'WebhookEvent', waiting: 'pending', orderBy: 'createdAt' });

/**
 * Fans claimed outbox events out: one message per enabled subscription of the event's project that asks for its type,
 * written in the transaction that removes the events (written once, even if this process dies half-way: the events
 * are then claimed again after their lease). Each event is rendered once, here, as the API shows its object; its
 * messages store that. Returns the number of events handled (0: none waiting).
 */
export async function dispatchEvents(
  holder: LeaseHolder & { db: Db; limit: number; render: RenderEvent },
): Promise<number> {
  const claimed = await EVENTS.claim(holder);
  if (!claimed.length) return 0;
  const { db } = holder;
  const events = await db.webhookEvent.findMany({ where: { id: { in: claimed.map((c) => c.id) } } });
  const subscriptions = await db.webhookSubscription.findMany({
    where: { projectId: { in: [...new Set(events.map((e) => e.projectId))] }, enabled: true },
    select: { id: true, projectId: true, events: true },
  });
  const now = holder.clock();
  const rendered = new Map<string, string>();
  for (const event of events) {
    const wanted = subscriptions.some((s) => s.projectId === event.projectId);
    if (!wanted) continue;
    const data = JSON.parse(event.data) as Record<string, unknown>;
    const { type, projectId, createdAt: eventAt } = event;
    rendered.set(event.id, await renderData({ type, eventAt, projectId, data, render: holder.render }));
  }
  const messages = events.flatMap((event) =>
    subscriptions
      .filter((s) => {
        if (s.projectId !== event.projectId) return false;
        const wanted = JSON.parse(s.events) as string[];
        return wanted.includes(ALL_EVENTS) || wanted.includes(event.type);
      })
      .map((s) => ({
        id: randomId('msg'),
        subscriptionId: s.id,
        projectId: event.projectId,
        type: event.type,
        data: rendered.get(event.id) as string,
        eventAt: event.createdAt,
        status: 'pending',
        retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
        dueAt: now,
        createdAt: now,
      })),
  );
  // one transaction for the batch: every event still held is removed and its messages written, or none is
  await db.$transaction(async (tx) => {
    const { count } = await tx.webhookEvent.deleteMany({
      where: { id: { in: events.map((e) => e.id) }, leaseOwner: holder.owner, status: 'pending' },
    });
    if (count !== events.length) throw new LeaseLost(`${events.length - count} outbox events were taken over`);
    await tx.webhookMessage.createMany({ data: messages });
  });
  return events.length;
}

/** A batch's lease ran out under it: nothing was written, and whoever holds the events now fans them out. */
class LeaseLost extends Error {}
