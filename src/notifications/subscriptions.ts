import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { Conflict, Invalid, NotFound } from '../errors.js';
import { ALL_EVENTS, isEventType } from './event-types.js';
import { parseTargetUrl, resolveTarget, type TargetPolicy } from './check-target.js';

/** A project's subscriptions are few by design: each event is one delivery per subscription. */
export const MAX_SUBSCRIPTIONS = 20;
/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** A subscription as the API lists it: never its secrets. */
export interface Subscription {
  id: string;
  projectId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** why Scribe turned it off, or null */
  disabledReason: string | null;
  /** since when its deliveries fail with no success between, or null */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SubscriptionDeps {
  db: Db;
  clock: Clock;
  policy: TargetPolicy;
  resolve?: Parameters<typeof resolveTarget>[2];
}

type Row = Awaited<ReturnType<Db['webhookSubscription']['findUniqueOrThrow']>>;
export const toSubscription = (row: Row): Subscription => ({
  id: row.id,
  projectId: row.projectId,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function checkEvents(events: string[]): string[] {
  if (!events.length) throw new Invalid('events: name at least one event, or "*" for all');
  const unknown = events.filter((e) => e !== ALL_EVENTS && !isEventType(e));
  if (unknown.length) throw new Invalid(`events: unknown event ${unknown.map((e) => JSON.stringify(e)).join(', ')}`);
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)].sort();
}

async function checkUrl(deps: SubscriptionDeps, raw: string): Promise<string> {
  const url = parseTargetUrl(raw, deps.policy);
  await resolveTarget(url, deps.policy, deps.resolve);
  return url.toString();
}

async function owned(db: Db, projectId: string, id: string): Promise<Row> {
  const row = await db.webhookSubscription.findUnique({ where: { id } });
  if (!row || row.projectId !== projectId) throw new NotFound('Webhook subscription not found');
  return row;
}

export async function createSubscription(
  deps: SubscriptionDeps,
  input: { projectId: string; url: string; events: string[]; description?: string | null },
): Promise<{ subscription: Subscription; secret: string }> {
  const { db, clock } = deps;
  const events = checkEvents(input.events);
  const url = await checkUrl(deps, input.url);
  const now = clock();
  const secret = newSecret();
  try {
    const row = await db.$transaction(async (tx) => {
      // counted in the transaction that inserts: SQLite's one writer and the unique key keep two racing creates honest
      // enough (at worst one over the cap on PostgreSQL, never a duplicate)
      const count = await tx.webhookSubscription.count({ where: { projectId: input.projectId } });
      if (count >= MAX_SUBSCRIPTIONS)
        throw new Conflict(`a project has at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; remove one first`);
      return tx.webhookSubscription.create({
        data: {
          id: randomId('whk'),
          projectId: input.projectId,
          url,
          events: JSON.stringify(events),
          description: input.description ?? null,
          secret,
          createdAt: now,
          updatedAt: now,
        },
      });
    });
    return { subscription: toSubscription(row), secret };
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`url: this project already has a subscription for ${url}`);
    throw err;
  }
}

export async function listSubscriptions(db: Db, projectId: string): Promise<Subscription[]> {
  const rows = await db.webhookSubscription.findMany({
    where: { projectId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toSubscription);
}

export async function getSubscription(db: Db, projectId: string, id: string): Promise<Subscription> {
  return toSubscription(await owned(db, projectId, id));
}

/** Changes the URL, events, description, or turns it on or off; turning it on forgets its failing streak. */
export async function updateSubscription(
  deps: SubscriptionDeps,
  input: {
    projectId: string;
    id: string;
    url?: string;
    events?: string[];
    description?: string | null;
    enabled?: boolean;
  },
): Promise<Subscription> {
  const { db, clock } = deps;
  await owned(db, input.projectId, input.id);
  const data = {
    ...(input.url !== undefined ? { url: await checkUrl(deps, input.url) } : {}),
    ...(input.events !== undefined ? { events: JSON.stringify(checkEvents(input.events)) } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enabled !== undefined
      ? input.enabled
        ? { enabled: true, disabledReason: null, failingSince: null }
        : { enabled: false }
      : {}),
    updatedAt: clock(),
  };
  try {
    return toSubscription(await db.webhookSubscription.update({ where: { id: input.id }, data }));
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`url: this project already has a subscription for ${data.url}`);
    throw err;
  }
}

/** Removes it with its deliveries and their attempts: nothing more is sent to it. */
export async function deleteSubscription(db: Db, projectId: string, id: string): Promise<void> {
  await owned(db, projectId, id);
  await db.$transaction([
    db.webhookAttempt.deleteMany({ where: { subscriptionId: id } }),
    db.webhookMessage.deleteMany({ where: { subscriptionId: id } }),
    db.webhookSubscription.delete({ where: { id } }),
  ]);
}

/** A new secret; the old one keeps signing beside it for 24 hours, so receivers can switch without a gap. */
export async function rotateSecret(
  deps: Pick<SubscriptionDeps, 'db' | 'clock'>,
  projectId: string,
  id: string,
): Promise<{ subscription: Subscription; secret: string; previousExpiresAt: Date }> {
  const row = await owned(deps.db, projectId, id);
  const now = deps.clock();
  const secret = newSecret();
  const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const updated = await deps.db.webhookSubscription.update({
    where: { id: row.id },
    data: { secret, previousSecret: row.secret, previousExpiresAt, updatedAt: now },
  });
  return { subscription: toSubscription(updated), secret, previousExpiresAt };
}

/** The secrets that sign a delivery made at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(row: Pick<Row, 'secret' | 'previousSecret' | 'previousExpiresAt'>, now: Date): string[] {
  return row.previousSecret && row.previousExpiresAt && row.previousExpiresAt > now
    ? [row.secret, row.previousSecret]
    : [row.secret];
}
