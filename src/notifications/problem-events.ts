import type { Db, DbTransaction } from '../db/client.js';
import { recordEvent } from './record-event.js';

/** A problem's stored state as its events carry it (the queue's `status`, `jobId` and dismissal reason). */
export interface ProblemSnapshot {
  projectId: string;
  id: string;
  kind: string;
  status: string;
  jobId: string | null;
  reason: string | null;
  updatedAt: Date;
}

/**
 * Records the events of one change to a problem's stored state, in the transaction of the change (the problems
 * module calls it; this module knows nothing of problems beyond the snapshot). `before` null: the problem had no
 * stored state (it was open), so `problem.created` is recorded, and `problem.status_changed` from `open` too when
 * it starts in another status. Otherwise `problem.status_changed` when the status changed; nothing when it did not.
 */
export async function recordProblemChange(
  db: Db | DbTransaction,
  change: { before: { status: string } | null; after: ProblemSnapshot; at: Date },
): Promise<void> {
  const { before, after, at } = change;
  const problem = {
    id: after.id,
    kind: after.kind,
    status: after.status,
    jobId: after.jobId,
    reason: after.reason,
    updatedAt: after.updatedAt.toISOString(),
  };
  if (!before) await recordEvent(db, { projectId: after.projectId, type: 'problem.created', at, data: { problem } });
  const previousStatus = before?.status ?? 'open';
  if (previousStatus !== after.status)
    await recordEvent(db, {
      projectId: after.projectId,
      type: 'problem.status_changed',
      at,
      data: { problem, previousStatus },
    });
}

/** What a completed outcome window settled, as the outcomes module reports it (structurally: no import upward). */
export interface SettledOutcome {
  merge: { jobId: string; projectId: string; repository: string; number: number; mergedAt: Date };
  /** the window that completed: 7 or 28 */
  days: number;
  /** the outcome as GET job's `outcome` shows it */
  outcome: object;
  /** the problems the window moved (fixed → verified/regressed, or between the two) */
  problems: { projectId: string; id: string; kind: string; from: string; to: string }[];
}

/**
 * The events of a completed outcome window, for the outcomes module to call in the transaction that records the
 * window as settled (main.ts passes it in): `outcome.ready`, and `problem.status_changed` for each problem it moved.
 */
export function outcomeEvents(clock: () => Date) {
  return async (db: Db | DbTransaction, settled: SettledOutcome): Promise<void> => {
    const at = clock();
    const { merge } = settled;
    await recordEvent(db, {
      projectId: merge.projectId,
      type: 'outcome.ready',
      at,
      data: {
        outcome: {
          jobId: merge.jobId,
          repository: merge.repository,
          number: merge.number,
          days: settled.days,
          ...settled.outcome,
        },
      },
    });
    for (const p of settled.problems)
      await recordProblemChange(db, {
        before: { status: p.from },
        after: {
          projectId: p.projectId,
          id: p.id,
          kind: p.kind,
          status: p.to,
          jobId: merge.jobId,
          reason: null,
          updatedAt: at,
        },
        at,
      });
  };
}
