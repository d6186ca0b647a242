import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { recordEvent } from '../notifications/record-event.js';

/** Which review a row is: one per automation and source commit. */
export interface ReviewKey {
  projectId: string;
  automationId: string;
  /** the source repository, owner/name (stored in lower case) */
  repository: string;
  headSha: string;
}

export type ReviewStatus = 'pending' | 'completed' | 'superseded';

export interface DocsReview extends ReviewKey {
  id: string;
  number: number;
  status: ReviewStatus;
  checkRunId: string | null;
  conclusion: string | null;
  title: string | null;
  pageCount: number | null;
  /** JSON the review kept for a docs draft: findings, rejected findings, reasons */
  findings: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<Db['docsReviewCheck']['findUniqueOrThrow']>>;
const toReview = ({ leaseOwner: _o, leaseExpiresAt: _e, ...row }: Row): DocsReview => ({
  ...row,
  status: row.status as ReviewStatus,
});

const where = (key: ReviewKey) => ({
  projectId_automationId_repository_headSha: {
    projectId: key.projectId,
    automationId: key.automationId,
    repository: key.repository.toLowerCase(),
    headSha: key.headSha,
  },
});

/**
 * Takes the review of this commit for this process: the unique key lets one claimant in (a redelivery, the same event
 * on another replica, a second event for the same commit), and a claim whose lease ran out (its process died) may be
 * taken over. `done` when the review is already finished, `busy` while another live claim holds it.
 */
export async function claimReview(params: {
  db: Db;
  clock: Clock;
  key: ReviewKey;
  number: number;
  owner: string;
  leaseMs: number;
}): Promise<{ claimed: DocsReview } | { done: DocsReview } | { busy: DocsReview }> {
  const { db, key } = params;
  const now = params.clock();
  const lease = { leaseOwner: params.owner, leaseExpiresAt: new Date(now.getTime() + params.leaseMs) };
  try {
    const row = await db.docsReviewCheck.create({
      data: {
        id: randomId('rev'),
        projectId: key.projectId,
        automationId: key.automationId,
        repository: key.repository.toLowerCase(),
        headSha: key.headSha,
        number: params.number,
        status: 'pending',
        ...lease,
        createdAt: now,
        updatedAt: now,
      },
    });
    return { claimed: toReview(row) };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const existing = await db.docsReviewCheck.findUniqueOrThrow({ where: where(key) });
  if (existing.status !== 'pending') return { done: toReview(existing) };
  const taken = await db.docsReviewCheck.updateMany({
    where: {
      id: existing.id,
      status: 'pending',
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
    },
    data: { ...lease, updatedAt: now },
  });
  const row = await db.docsReviewCheck.findUniqueOrThrow({ where: { id: existing.id } });
  return taken.count ? { claimed: toReview(row) } : { busy: toReview(row) };
}

/** Renews the claim while the review runs; false when another process has taken it over. */
export async function renewReview(params: {
  db: Db;
  clock: Clock;
  id: string;
  owner: string;
  leaseMs: number;
}): Promise<boolean> {
  const now = params.clock();
  const { count } = await params.db.docsReviewCheck.updateMany({
    where: { id: params.id, status: 'pending', leaseOwner: params.owner },
    data: { leaseExpiresAt: new Date(now.getTime() + params.leaseMs), updatedAt: now },
  });
  return count > 0;
}

/** The check run created for the review, kept as soon as GitHub answers so a takeover reuses it. */
export async function recordCheckRun(params: { db: Db; clock: Clock; id: string; checkRunId: string }): Promise<void> {
  await params.db.docsReviewCheck.update({
    where: { id: params.id },
    data: { checkRunId: params.checkRunId, updatedAt: params.clock() },
  });
}

/** The review's end, written only by the claim that holds it: false when the claim was lost. */
export async function finishReview(params: {
  db: Db;
  clock: Clock;
  id: string;
  owner: string;
  status: 'completed' | 'superseded';
  conclusion: string;
  title: string;
  pageCount: number;
  findings: string | null;
}): Promise<boolean> {
  const now = params.clock();
  // the review's end and the outgoing webhook's `review.completed` are one write
  return params.db.$transaction(async (tx) => {
    const { count } = await tx.docsReviewCheck.updateMany({
      where: { id: params.id, status: 'pending', leaseOwner: params.owner },
      data: {
        status: params.status,
        conclusion: params.conclusion,
        title: params.title,
        pageCount: params.pageCount,
        findings: params.findings,
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: now,
      },
    });
    if (count > 0 && params.status === 'completed') {
      const review = toReview(await tx.docsReviewCheck.findUniqueOrThrow({ where: { id: params.id } }));
      await recordEvent(tx, { projectId: review.projectId, type: 'review.completed', at: now, data: { review } });
    }
    return count > 0;
  });
}

/** The newest finished review of a pull request by an automation (what a docs draft starts from); null when none. */
export async function latestReview(params: {
  db: Db;
  projectId: string;
  automationId: string;
  repository: string;
  number: number;
}): Promise<DocsReview | null> {
  const row = await params.db.docsReviewCheck.findFirst({
    where: {
      projectId: params.projectId,
      automationId: params.automationId,
      repository: params.repository.toLowerCase(),
      number: params.number,
      status: 'completed',
    },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
  });
  return row ? toReview(row) : null;
}

export async function findReview(db: Db, key: ReviewKey): Promise<DocsReview | null> {
  const row = await db.docsReviewCheck.findUnique({ where: where(key) });
  return row ? toReview(row) : null;
}

export interface ReviewComment {
  commentId: string;
  state: 'open' | 'resolved';
  headSha: string;
}

const commentKey = (key: Omit<ReviewKey, 'headSha'> & { number: number }) => ({
  projectId_automationId_repository_number: {
    projectId: key.projectId,
    automationId: key.automationId,
    repository: key.repository.toLowerCase(),
    number: key.number,
  },
});

export async function findReviewComment(
  db: Db,
  key: Omit<ReviewKey, 'headSha'> & { number: number },
): Promise<ReviewComment | null> {
  const row = await db.docsReviewComment.findUnique({ where: commentKey(key) });
  return row ? { commentId: row.commentId, state: row.state as ReviewComment['state'], headSha: row.headSha } : null;
}

/**
 * Keeps the pull request's comment: false when another process stored one first (the caller deletes the one it
 * posted, so the pull request keeps a single comment).
 */
export async function saveReviewComment(params: {
  db: Db;
  clock: Clock;
  key: Omit<ReviewKey, 'headSha'> & { number: number };
  comment: ReviewComment;
  /** true: the row is new; the unique key decides between two first comments */
  first: boolean;
}): Promise<boolean> {
  const { db, key, comment } = params;
  const data = { ...comment, updatedAt: params.clock() };
  if (!params.first) {
    await db.docsReviewComment.update({ where: commentKey(key), data });
    return true;
  }
  try {
    await db.docsReviewComment.create({
      data: {
        projectId: key.projectId,
        automationId: key.automationId,
        repository: key.repository.toLowerCase(),
        number: key.number,
        ...data,
      },
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** The review a check run belongs to: its external_id is the review's id. */
export async function findReviewById(db: Db, id: string): Promise<DocsReview | null> {
  const row = await db.docsReviewCheck.findUnique({ where: { id } });
  return row ? toReview(row) : null;
}
