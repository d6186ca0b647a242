import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { ChangedPage } from './changed-pages.js';

/** The facts of one merged Scribe docs pull request, as stored at its merge. */
export interface DocsMerge {
  jobId: string;
  projectId: string;
  repository: string;
  number: number;
  mergedAt: Date;
  pages: ChangedPage[];
}

/** Kept once per job: a redelivered merge event (or a follow-up pull request merged later) writes the newest facts. */
export async function recordDocsMerge(params: { db: Db; clock: Clock; merge: DocsMerge }): Promise<void> {
  const { db, merge } = params;
  const data = {
    projectId: merge.projectId,
    repository: merge.repository,
    number: merge.number,
    mergedAt: merge.mergedAt,
    pages: JSON.stringify(merge.pages),
  };
  await db.docsPullRequestMerge.upsert({
    where: { jobId: merge.jobId },
    create: { jobId: merge.jobId, ...data, createdAt: params.clock() },
    update: data,
  });
}

type Row = Omit<DocsMerge, 'pages'> & { pages: string };
const toMerge = (row: Row): DocsMerge => ({
  jobId: row.jobId,
  projectId: row.projectId,
  repository: row.repository,
  number: row.number,
  mergedAt: row.mergedAt,
  pages: JSON.parse(row.pages) as ChangedPage[],
});

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
}): Promise<DocsMerge[]> {
  const rows = await params.db.docsPullRequestMerge.findMany({
    where: { projectId: params.projectId, mergedAt: { gte: params.from, lt: params.to } },
    orderBy: [{ mergedAt: 'desc' }, { jobId: 'asc' }],
  });
  return rows.map(toMerge);
}
