import type { Db } from '../db/client.js';
import { NotFound } from '../errors.js';
import { getJob } from '../jobs/job-store.js';
import type { DerivedProblem } from './problem.js';

/**
 * What a fix of the problems queue records as its job's cause: the problems it was asked to fix, each with its
 * query when it is a search gap (the job's outcome measures that query's click-through: searchGapsOfJob).
 */
export function fixCause(problems: readonly DerivedProblem[]) {
  return {
    problems: problems.map((p) => ({
      id: p.id,
      kind: p.kind,
      title: p.title,
      ...(p.kind === 'search-gap' && 'query' in p.evidence ? { query: p.evidence.query } : {}),
    })),
  };
}

/** The search-gap problems a job was started to fix, with their queries: none for a job started otherwise. */
export async function searchGapsOfJob(
  db: Db,
  projectId: string,
  jobId: string,
): Promise<{ id: string; query: string }[]> {
  // a job gone (or another project's) started nothing; any other failure is not an answer of "no gaps"
  const { cause } = await getJob(db, projectId, jobId).catch((err: unknown) => {
    if (err instanceof NotFound) return { cause: null };
    throw err;
  });
  let problems: unknown;
  try {
    problems = cause && (JSON.parse(cause) as { problems?: unknown }).problems;
  } catch {
    return [];
  }
  if (!Array.isArray(problems)) return [];
  return problems.flatMap((p: { id?: unknown; kind?: unknown; query?: unknown }) =>
    p?.kind === 'search-gap' && typeof p.id === 'string' && typeof p.query === 'string'
      ? [{ id: p.id, query: p.query }]
      : [],
  );
}
