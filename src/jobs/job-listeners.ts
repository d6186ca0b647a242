import type { JobRecord } from './job-store.js';
import type { RunEnd } from './run-types.js';

/**
 * Told how each run ended, unless it was stopped (archived, lease lost, shutting down): the job replies answer the
 * comments the run carried out, the automations settle the runs it carried out. The worker calls every listener in
 * turn after the runner returns or fails and before the job leaves `active`, so what they do is done before a client
 * sees the end; a listener that throws is logged and the next one still runs. Wired in main.ts (JobWorker `onRunEnd`).
 */
export type RunListener = (end: RunEnd) => Promise<void>;

/**
 * Told that a job was archived, once the archive is stored: the worker stops the job's run now rather than at its
 * next heartbeat, the job replies comment on its open pull request. Called by JobRequests.archive, not awaited (a
 * listener that has work to do starts it in the background). Wired in main.ts (createJobRequests `onArchived`).
 */
export type ArchiveListener = (job: JobRecord) => void;
