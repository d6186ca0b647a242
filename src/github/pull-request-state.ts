import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';

/** What GitHub last told Scribe about a job's pull request (`pr` on the job object). */
export interface PullRequestState {
  state: 'open' | 'closed';
  merged: boolean;
  mergedAt: string | null;
}

export async function recordPullRequestState(params: {
  db: Db;
  clock: Clock;
  jobId: string;
  repository: string;
  number: number;
  state: PullRequestState;
}): Promise<void> {
  const { db, jobId, repository, number, state } = params;
  const data = {
    repository,
    number,
    state: state.state,
    merged: state.merged,
    mergedAt: state.mergedAt ? new Date(state.mergedAt) : null,
    updatedAt: params.clock(),
  };
  await db.jobPullRequest.upsert({ where: { jobId }, create: { jobId, ...data }, update: data });
}

/**
 * Recorded states of these jobs' current pull requests; a job missing from the map has no recorded event. A state
 * recorded for another pull request than the job's current one (a follow-up after a close opens a new one) is not
 * the job's state any more.
 */
export async function pullRequestStates(
  db: Db,
  jobs: { id: string; prNumber: number | null }[],
): Promise<Map<string, PullRequestState>> {
  const current = new Map(jobs.filter((job) => job.prNumber !== null).map((job) => [job.id, job.prNumber]));
  if (!current.size) return new Map();
  const rows = await db.jobPullRequest.findMany({ where: { jobId: { in: [...current.keys()] } } });
  return new Map(
    rows
      .filter((row) => current.get(row.jobId) === row.number)
      .map((row) => [
        row.jobId,
        {
          state: row.state === 'closed' ? 'closed' : 'open',
          merged: row.merged,
          mergedAt: row.mergedAt ? row.mergedAt.toISOString() : null,
        },
      ]),
  );
}
