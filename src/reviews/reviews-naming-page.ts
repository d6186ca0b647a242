import type { Db } from '../db/client.js';

/** A finished docs review of a source pull request that named a page. */
export interface ReviewNamingPage {
  repository: string;
  number: number;
  headSha: string;
  conclusion: string | null;
  /** how many of its findings are on the page */
  findings: number;
  reviewedAt: Date;
}

/** The project's finished reviews whose findings name `file` (a path in the docs repository), newest first. */
export async function reviewsNamingPage(
  db: Db,
  params: { projectId: string; file: string; limit: number },
): Promise<ReviewNamingPage[]> {
  const rows = await db.docsReviewCheck.findMany({
    where: {
      projectId: params.projectId,
      status: 'completed',
      findings: { contains: `"page":${JSON.stringify(params.file)}` },
    },
    orderBy: { updatedAt: 'desc' },
    take: params.limit,
  });
  return rows.flatMap((row) => {
    const kept = (JSON.parse(row.findings ?? '{}') as { findings?: { page?: string }[] }).findings ?? [];
    const findings = kept.filter((f) => f.page === params.file).length;
    return findings
      ? [
          {
            repository: row.repository,
            number: row.number,
            headSha: row.headSha,
            conclusion: row.conclusion,
            findings,
            reviewedAt: row.updatedAt,
          },
        ]
      : [];
  });
}
