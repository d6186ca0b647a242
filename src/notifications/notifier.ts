import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import { startHeartbeat, type LeaseHolder } from '../db/lease-queue.js';
import { createPollingWorker } from '../db/polling-worker.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { randomId } from '../ids.js';
import { buildBody, type RenderEvent } from './build-body.js';
import { parseTargetUrl, resolveTarget, type TargetPolicy } from './check-target.js';
import { dispatchEvents } from './dispatch-events.js';
import { claimMessages, dropMessage, MESSAGES, settleAttempt, type ClaimedMessage } from './messages.js';
import { judge } from './retry-schedule.js';
import { sendMessage, type SendResult } from './send-message.js';
import { signingSecrets } from './subscriptions.js';

export interface NotifierDeps {
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  logger: Logger;
  policy: TargetPolicy;
  render: RenderEvent;
  leaseMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** sends in flight in this process, and per subscription: a slow receiver cannot hold every slot */
  concurrency?: number;
  perSubscription?: number;
  timeoutMs?: number;
  random?: () => number;
  resolve?: Parameters<typeof resolveTarget>[2];
  workerId?: string;
}

export interface Notifier {
  /** an event or a message was written in this process: look now rather than at the next poll */
  wake(): void;
  start(): void;
  /** stops claiming and waits for the sends in hand (each ends in at most the send timeout) */
  stop(): Promise<void>;
}

/** Outbox events fanned out per turn. */
const DISPATCH_BATCH = 25;

/** The receiver's answer is cut at this; the spec's receivers are expected to answer within seconds. */
export const SEND_TIMEOUT_MS = 10_000;

/**
 * Sends outgoing webhooks from this process: fans outbox events out to messages (dispatch-events.ts), claims due
 * messages under a lease (db/lease-queue.ts), signs and sends each, and records the try (messages.ts). Any number of
 * processes may run one; a process killed mid-send leaves its messages to be claimed again once their lease ends.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  const concurrency = deps.concurrency ?? 32;
  const perSubscription = deps.perSubscription ?? 8;
  const holder: LeaseHolder & { db: Db } = {
    db: deps.db,
    database: deps.database,
    clock: deps.clock,
    owner: deps.workerId ?? randomId('ntf'),
    leaseMs: deps.leaseMs,
  };
  const inFlight = new Map<string, number>();
  const inHand = new Set<Promise<void>>();
  /**
   * The subscription that last got a slot: the next turn starts after it, so scarce slots go round every receiver in
   * turn. (Counting turns instead would let turns that find no free slot fix the order on one receiver.)
   */
  let lastServed = '';

  const send = async ({ message, subscription }: ClaimedMessage) => {
    if (!subscription.enabled) {
      await dropMessage({ ...holder, id: message.id, why: 'the subscription is turned off' });
      return;
    }
    const heartbeat = startHeartbeat({
      everyMs: deps.heartbeatMs,
      renew: () => MESSAGES.renew({ ...holder, id: message.id }),
      failed: (err) => deps.logger.warn({ err, message: message.id }, 'could not renew a webhook message lease'),
    });
    let result: SendResult;
    let refused = false;
    try {
      const url = parseTargetUrl(subscription.url, deps.policy);
      const address = await resolveTarget(url, deps.policy, deps.resolve).catch((err: Error) => {
        // a name that does not resolve may resolve later; one that resolves to a refused address is refused
        refused = !/does not resolve/.test(err.message);
        throw err;
      });
      const now = deps.clock();
      const body = buildBody({ type: message.type, eventAt: message.eventAt, data: message.data });
      const signature = signingSecrets(subscription, now)
        .map((secret) => new Webhook(secret).sign(message.id, now, body))
        .join(' ');
      result = await sendMessage({
        url,
        address,
        body,
        timeoutMs: deps.timeoutMs ?? SEND_TIMEOUT_MS,
        headers: {
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
    } catch (err) {
      result = { error: (err as Error).message.slice(0, 300), durationMs: 0 };
    } finally {
      heartbeat.stop();
    }
    const verdict =
      refused && 'error' in result ? { ends: 'failed' as const, why: result.error } : judge(result, deps.clock());
    const settled = await settleAttempt({ ...holder, message, result, verdict, random: deps.random });
    deps.logger.debug(
      { message: message.id, subscription: message.subscriptionId, settled, durationMs: result.durationMs },
      'webhook message tried',
    );
  };

  const begin = (c: ClaimedMessage) => {
    const sub = c.subscription.id;
    inFlight.set(sub, (inFlight.get(sub) ?? 0) + 1);
    const task = send(c)
      .catch((err: unknown) => deps.logger.error({ err, message: c.message.id }, 'webhook message bookkeeping failed'))
      .finally(() => {
        const left = (inFlight.get(sub) ?? 1) - 1;
        if (left > 0) inFlight.set(sub, left);
        else inFlight.delete(sub);
        inHand.delete(task);
        worker.wake();
      });
    inHand.add(task);
  };

  /**
   * One turn: a batch of outbox events fanned out, then each subscription's due messages claimed up to its free slots
   * (a receiver at its limit is not even asked for). Answers whether more may be waiting.
   */
  const turn = async () => {
    // one small batch of events per turn, then sends: a steady stream of changes must not starve the deliveries, and
    // a batch (each event rendered as the API shows it, which reads the database) must end well within its lease
    const dispatched = await dispatchEvents({ ...holder, limit: DISPATCH_BATCH, render: deps.render });
    let more = dispatched > 0;
    const subscriptions = await deps.db.webhookSubscription.findMany({ orderBy: { id: 'asc' } });
    const first = (subscriptions.findIndex((s) => s.id === lastServed) + 1) % Math.max(subscriptions.length, 1);
    for (const subscription of [...subscriptions.slice(first), ...subscriptions.slice(0, first)]) {
      const free = concurrency - inHand.size;
      // every slot busy: a finished send wakes the worker
      if (free <= 0) break;
      const slots = Math.min(free, perSubscription - (inFlight.get(subscription.id) ?? 0));
      if (slots <= 0) continue;
      const claimed = await claimMessages({ ...holder, limit: slots, subscription });
      for (const c of claimed) begin(c);
      if (claimed.length) lastServed = subscription.id;
      if (claimed.length === slots) more = true;
    }
    return more;
  };

  const worker = createPollingWorker({
    pollMs: deps.pollMs,
    turn,
    failed: (err) => deps.logger.error({ err }, 'could not claim webhook work'),
  });

  return {
    wake: worker.wake,
    start: worker.start,
    async stop() {
      await worker.stop();
      await Promise.allSettled([...inHand]);
    },
  };
}
