/** The four statuses of the API contract and which moves between them are allowed. */
export const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  active: ['completed', 'failed', 'archived'],
  completed: ['active', 'archived'],
  failed: ['active', 'archived'],
  archived: [],
};

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}

/** Where a run was when it failed; shown in the job's events and kept on the job. */
export type JobStage = 'github' | 'clone' | 'agent' | 'commit' | 'push' | 'pull_request' | 'worker';

/** Why a worker stops a run: the job was archived, its lease went to another worker, or the process is stopping. */
export type StopReason = 'archived' | 'lost' | 'shutdown';
