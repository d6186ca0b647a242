/** The four statuses of the API contract and which moves between them are allowed. */
export const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  active: ['completed', 'failed', 'archived'],
  completed: ['active', 'archived'],
  failed: ['active', 'archived'],
  archived: [],
};

/**
 * The statuses a job may move to `to` from. Every status change in the store filters on these in its WHERE clause,
 * so a move the table does not allow (say, failing a job archived a moment ago) changes nothing.
 */
export function statusesBefore(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => TRANSITIONS[from].includes(to));
}

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}

/** Where a run was when it failed; shown in the job's events and kept on the job. */
export type JobStage = 'github' | 'clone' | 'agent' | 'commit' | 'push' | 'pull_request' | 'worker';

/** Why a worker stops a run: the job was archived, its lease went to another worker, or the process is stopping. */
export type StopReason = 'archived' | 'lost' | 'shutdown';
