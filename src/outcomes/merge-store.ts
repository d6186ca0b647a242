import type { Db, DbTransaction } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { ChangedPage } from './changed-pages.js';
import type { VisitorCounts } from '../analytics/reports/outcome-counts.js';

/** The facts of one merged Scribe docs pull request, as stored at its merge. */
export interface DocsMerge {
  jobId: string;
  projectId: string;
  repository: string;
  number: number;
  mergedAt: Date;
  pages: ChangedPage[];
  /** the visitors of its windows' ended sides as the sweep last counted them (keepVisitors), by range */
  keptVisitors?: KeptVisitors;
}

/**
 * The distinct visitors of a merge's window sides, by range (`<from>:<to>`): in the order of the groups its outcome
 * counts (each page, the pages together, each moved page with its old path), under the key of what they were counted
 * from.
 */
export type KeptVisitors = Record<string, { key: string; visitors: VisitorCounts[] }>;

/**
 * Kept once per job: a redelivered merge event writes the same facts again; a follow-up pull request merged later
 * writes its own, and its outcome is settled and commented on afresh (on that pull request).
 */
export async function recordDocsMerge(params: { db: Db; clock: Clock; merge: DocsMerge }): Promise<void> {
  const { db, merge } = params;
  const before = await db.docsPullRequestMerge.findUnique({ where: { jobId: merge.jobId }, select: { number: true } });
  const another = before && before.number !== merge.number;
  const data = {
    projectId: merge.projectId,
    repository: merge.repository,
    number: merge.number,
    mergedAt: merge.mergedAt,
    pages: JSON.stringify(merge.pages),
    ...(another ? { settledDays: 0, commentDays: 0, commentId: null, commentClaimedAt: null, keptVisitors: null } : {}),
  };
  await db.docsPullRequestMerge.upsert({
    where: { jobId: merge.jobId },
    create: { jobId: merge.jobId, ...data, createdAt: params.clock() },
    update: data,
  });
}

type Row = Omit<DocsMerge, 'pages' | 'keptVisitors'> & { pages: string; keptVisitors?: string | null };

/** A merge with what the outcome sweep has done for it. */
export interface SweptMerge extends DocsMerge {
  settledDays: number;
  commentDays: number;
  commentId: string | null;
}

/**
 * The merges whose 7-day window is complete (merged at or before `completeBy`) and that the sweep has something left
 * to do for: a window not settled yet, or a comment not at 28 days yet. Oldest first, at most `limit`.
 */
export async function mergesToSweep(params: { db: Db; completeBy: Date; limit: number }): Promise<SweptMerge[]> {
  const rows = await params.db.docsPullRequestMerge.findMany({
    where: { mergedAt: { lte: params.completeBy }, OR: [{ settledDays: { lt: 28 } }, { commentDays: { lt: 28 } }] },
    orderBy: [{ mergedAt: 'asc' }, { jobId: 'asc' }],
    take: params.limit,
  });
  return rows.map((row) => ({
    ...toMerge(row),
    settledDays: row.settledDays,
    commentDays: row.commentDays,
    commentId: row.commentId,
  }));
}

/** Moves a merge's settled window from `from` to `to`; false when another process moved it first. */
export async function claimSettled(
  db: Db | DbTransaction,
  params: { jobId: string; from: number; to: number },
): Promise<boolean> {
  const { count } = await db.docsPullRequestMerge.updateMany({
    where: { jobId: params.jobId, settledDays: params.from },
    data: { settledDays: params.to },
  });
  return count === 1;
}

/**
 * Claims the merge's comment for `days` (it shows an earlier window or none): true for the one process that may post
 * or edit it now. A claim older than `leaseMs` was left by a process that stopped, and is taken over.
 */
export async function claimComment(params: {
  db: Db;
  now: Date;
  leaseMs: number;
  jobId: string;
  days: number;
}): Promise<boolean> {
  const { count } = await params.db.docsPullRequestMerge.updateMany({
    where: {
      jobId: params.jobId,
      commentDays: { lt: params.days },
      OR: [{ commentClaimedAt: null }, { commentClaimedAt: { lt: new Date(params.now.getTime() - params.leaseMs) } }],
    },
    data: { commentClaimedAt: params.now },
  });
  return count === 1;
}

/** The claimed comment is done for `days` (posted or edited as `commentId`, or null: none is wanted), or given up. */
export async function settleComment(
  db: Db,
  params: { jobId: string; result: { days: number; commentId: string | null } | 'released' },
): Promise<void> {
  const { jobId, result } = params;
  await db.docsPullRequestMerge.updateMany({
    where: { jobId },
    data:
      result === 'released'
        ? { commentClaimedAt: null }
        : {
            commentClaimedAt: null,
            commentDays: result.days,
            ...(result.commentId ? { commentId: result.commentId } : {}),
          },
  });
}
const toMerge = (row: Row): DocsMerge => ({
  jobId: row.jobId,
  projectId: row.projectId,
  repository: row.repository,
  number: row.number,
  mergedAt: row.mergedAt,
  pages: JSON.parse(row.pages) as ChangedPage[],
  keptVisitors: row.keptVisitors ? (JSON.parse(row.keptVisitors) as KeptVisitors) : undefined,
});

/** Every merge of every project merged at or before `mergedBy`, by project. */
export async function mergesBy(db: Db, mergedBy: Date): Promise<Map<string, DocsMerge[]>> {
  const rows = await db.docsPullRequestMerge.findMany({
    where: { mergedAt: { lte: mergedBy } },
    orderBy: [{ projectId: 'asc' }, { mergedAt: 'asc' }, { jobId: 'asc' }],
  });
  const byProject = new Map<string, DocsMerge[]>();
  for (const row of rows) {
    const merges = byProject.get(row.projectId) ?? [];
    merges.push(toMerge(row));
    byProject.set(row.projectId, merges);
  }
  return byProject;
}

/** Keeps the visitors of a merge's window sides (a process counting them later writes its own). */
export async function keepVisitors(db: Db, jobId: string, kept: KeptVisitors): Promise<void> {
  await db.docsPullRequestMerge.updateMany({ where: { jobId }, data: { keptVisitors: JSON.stringify(kept) } });
}

export async function findDocsMerge(db: Db, projectId: string, jobId: string): Promise<DocsMerge | null> {
  const row = await db.docsPullRequestMerge.findFirst({ where: { jobId, projectId } });
  return row && toMerge(row);
}

/** Every merge within [from, to), newest first (then by job id, the order the outcomes list pages in). */
export async function listDocsMerges(params: {
  db: Db;
  projectId: string;
  from: Date;
  to: Date;
  /** with the visitors the sweep kept (a few kilobytes a merge): only where they are read */
  kept?: boolean;
}): Promise<DocsMerge[]> {
  const rows = await params.db.docsPullRequestMerge.findMany({
    where: { projectId: params.projectId, mergedAt: { gte: params.from, lt: params.to } },
    orderBy: [{ mergedAt: 'desc' }, { jobId: 'asc' }],
    omit: { keptVisitors: !params.kept },
  });
  return rows.map(toMerge);
}
