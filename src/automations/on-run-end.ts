import type { RunEnd } from '../jobs/run-types.js';
import type { AutomationDeps } from './automation-deps.js';
import { runningRunsOfJob, runsOfJob, updateRun, type RunStatus } from './run-store.js';

/**
 * A run of the job ended (the worker's run-end listener): settles the automation runs it carried out. A failed run
 * fails every run still waiting on the job; a finished one settles those up to the last message it handled (later
 * ones wait for the next run) as a pull request opened, updated (an earlier run of the job already had one) or no
 * changes.
 */
export async function settleRuns(deps: Pick<AutomationDeps, 'db' | 'clock'>, end: RunEnd): Promise<void> {
  const { db, clock } = deps;
  const running = await runningRunsOfJob(db, end.job.id);
  if (!running.length) return;
  if ('error' in end) {
    for (const run of running)
      await updateRun({ db, clock, id: run.id, data: { status: 'failed', reason: end.error } });
    return;
  }
  const { outcome } = end;
  const carried = running.filter((r) => (r.seq ?? 0) <= outcome.handledSeq);
  const earlier = (await runsOfJob(db, end.job.id)).some(
    (r) => r.status === 'pull_request_opened' || r.status === 'pull_request_updated',
  );
  const status: RunStatus = !outcome.sha
    ? 'no_changes'
    : outcome.prLink && earlier
      ? 'pull_request_updated'
      : outcome.prLink
        ? 'pull_request_opened'
        : 'no_changes';
  for (const run of carried) await updateRun({ db, clock, id: run.id, data: { status, prLink: outcome.prLink } });
}
