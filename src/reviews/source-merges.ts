import type { Db } from '../db/client.js';
import type { Finding } from './impact/find-impact.js';

/**
 * Keeps when a source pull request merged, if a docs review of it is on record (other pull requests are no one's
 * concern); a redelivery keeps the first time. Returns whether it was kept.
 */
export async function recordSourceMerge(
  db: Db,
  params: { repository: string; number: number; mergedAt: Date },
): Promise<boolean> {
  const repository = params.repository.toLowerCase();
  const reviewed = await db.docsReviewCheck.findFirst({ where: { repository, number: params.number } });
  if (!reviewed) return false;
  await db.sourcePullMerge.upsert({
    where: { repository_number: { repository, number: params.number } },
    create: { repository, number: params.number, mergedAt: params.mergedAt },
    update: {},
  });
  return true;
}

/** The findings of a merged source pull request's newest finished review, per automation. */
export interface MergedFindings {
  repository: string;
  number: number;
  mergedAt: Date;
  /** when the review was made: docs pull requests from then on may have covered its findings */
  reviewedAt: Date;
  findings: (Finding & { reason?: string | null })[];
}

/** A project's merged source pull requests whose newest finished review found docs pages to update. */
export async function mergedFindings(db: Db, projectId: string): Promise<MergedFindings[]> {
  const reviews = await db.docsReviewCheck.findMany({
    where: { projectId, status: 'completed', pageCount: { gt: 0 } },
    orderBy: { createdAt: 'desc' },
  });
  if (!reviews.length) return [];
  const merges = await db.sourcePullMerge.findMany({
    where: { OR: reviews.map((r) => ({ repository: r.repository, number: r.number })) },
  });
  const mergedAt = new Map(merges.map((m) => [`${m.repository}#${m.number}`, m.mergedAt]));
  const newest = new Map<string, MergedFindings>();
  for (const review of reviews) {
    const pull = `${review.repository}#${review.number}`;
    const merged = mergedAt.get(pull);
    const key = `${review.automationId} ${pull}`;
    if (!merged || newest.has(key) || !review.findings) continue;
    const findings = (JSON.parse(review.findings) as { findings?: MergedFindings['findings'] }).findings ?? [];
    newest.set(key, {
      repository: review.repository,
      number: review.number,
      mergedAt: merged,
      reviewedAt: review.createdAt,
      findings,
    });
  }
  return [...newest.values()];
}
