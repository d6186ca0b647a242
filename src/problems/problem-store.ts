import type { Db, DbTransaction } from '../db/client.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { ProblemKind, ProblemStatus } from './problem-kinds.js';
import { recordProblemChange } from '../notifications/problem-events.js';

/** The work on one problem: the only thing stored per problem (the table is this module's own). */
export interface ProblemState {
  projectId: string;
  id: string;
  kind: ProblemKind;
  status: ProblemStatus;
  reason: string | null;
  dismissedAt: Date | null;
  fixKey: string | null;
  jobId: string | null;
  fixedAt: Date | null;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<Db['problemState']['findUniqueOrThrow']>>;
const toState = ({ createdAt: _c, ...row }: Row): ProblemState => ({
  ...row,
  kind: row.kind as ProblemKind,
  status: row.status as ProblemStatus,
});

export async function statesOf(db: Db, projectId: string, ids: string[]): Promise<Map<string, ProblemState>> {
  if (!ids.length) return new Map();
  const rows = await db.problemState.findMany({ where: { projectId, id: { in: ids } } });
  return new Map(rows.map((row) => [row.id, toState(row)]));
}

/** Every stored state of a project (kept only for problems someone acted on), by problem id. */
export async function projectStates(db: Db, projectId: string): Promise<Map<string, ProblemState>> {
  const rows = await db.problemState.findMany({ where: { projectId } });
  return new Map(rows.map((row) => [row.id, toState(row)]));
}

/** Dismisses (`reason` kept) or opens again: the claim of a fix, its job and its fix time are forgotten. */
export async function setStatus(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  id: string;
  kind: ProblemKind;
  status: 'open' | 'dismissed';
  reason?: string;
}): Promise<void> {
  const { db, projectId, id } = params;
  const now = params.clock();
  const data = {
    kind: params.kind,
    status: params.status,
    reason: params.status === 'dismissed' ? (params.reason ?? null) : null,
    dismissedAt: params.status === 'dismissed' ? now : null,
    fixKey: null,
    jobId: null,
    fixedAt: null,
    updatedAt: now,
  };
  await db.$transaction(async (tx) => {
    const before = await tx.problemState.findUnique({ where: { projectId_id: { projectId, id } } });
    const after = await tx.problemState.upsert({
      where: { projectId_id: { projectId, id } },
      create: { projectId, id, ...data, createdAt: now },
      update: data,
    });
    await recordProblemChange(tx, { before, after, at: now });
  });
}

/** A problem a fix claimed, and its state before (null: it had none). */
export interface Claimed {
  id: string;
  before: ProblemState | null;
}

/**
 * Marks each problem `in_progress` under `fixKey` unless a fix already holds it: the row's primary key and the
 * conditional update let one fix in, whichever replica asks. All or nothing: when one is held, the ones this call
 * took are given back as they were, and the holder's key and job are answered.
 */
export async function claimForFix(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  problems: { id: string; kind: ProblemKind }[];
  fixKey: string;
}): Promise<
  { claimed: true; taken: Claimed[] } | { claimed: false; heldBy: { fixKey: string | null; jobId: string | null } }
> {
  const { db, projectId, fixKey } = params;
  const now = params.clock();
  const taken: Claimed[] = [];
  const claim = { status: 'in_progress', fixKey, jobId: null, fixedAt: null, updatedAt: now };
  for (const problem of params.problems) {
    const before = (await statesOf(db, projectId, [problem.id])).get(problem.id) ?? null;
    let won = false;
    if (!before) {
      try {
        await db.$transaction(async (tx) => {
          const after = await tx.problemState.create({
            data: { projectId, id: problem.id, kind: problem.kind, ...claim, createdAt: now },
          });
          await recordProblemChange(tx, { before: null, after, at: now });
        });
        won = true;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    } else if (before.status !== 'in_progress') {
      won = await db.$transaction(async (tx) => {
        const { count } = await tx.problemState.updateMany({
          where: { projectId, id: problem.id, status: before.status, updatedAt: before.updatedAt },
          data: claim,
        });
        if (count === 1) await recordProblemChange(tx, { before, after: { ...before, ...claim }, at: now });
        return count === 1;
      });
    }
    if (won) {
      taken.push({ id: problem.id, before });
      continue;
    }
    await releaseFix({ db, projectId, fixKey, taken });
    const holder = (await statesOf(db, projectId, [problem.id])).get(problem.id);
    return { claimed: false, heldBy: { fixKey: holder?.fixKey ?? null, jobId: holder?.jobId ?? null } };
  }
  return { claimed: true, taken };
}

/** Gives back what a fix claimed (its job could not be started): each row as it was before the claim. */
export async function releaseFix(params: {
  db: Db;
  projectId: string;
  fixKey: string;
  taken: Claimed[];
}): Promise<void> {
  const { db, projectId, fixKey } = params;
  for (const { id, before } of params.taken) {
    await db.$transaction(async (tx) => {
      const held = await tx.problemState.findFirst({ where: { projectId, id, fixKey } });
      if (!held) return;
      if (!before) {
        // no stored state again: open, as it was
        await tx.problemState.deleteMany({ where: { projectId, id, fixKey } });
        const open = { ...held, status: 'open', fixKey: null, jobId: null, reason: null, updatedAt: held.updatedAt };
        await recordProblemChange(tx, { before: held, after: open, at: held.updatedAt });
        return;
      }
      const { projectId: _p, id: _i, kind: _k, ...was } = before;
      await tx.problemState.updateMany({ where: { projectId, id, fixKey }, data: was });
      await recordProblemChange(tx, { before: held, after: before, at: before.updatedAt });
    });
  }
}

/** The job a fix started, on every problem it claimed. */
export async function attachJob(params: { db: Db; clock: Clock; projectId: string; fixKey: string; jobId: string }) {
  await params.db.problemState.updateMany({
    where: { projectId: params.projectId, fixKey: params.fixKey, status: 'in_progress' },
    data: { jobId: params.jobId, updatedAt: params.clock() },
  });
}

/** The job's pull request merged (its problems are fixed) or closed unmerged (they are open again). */
export async function settleJob(params: { db: Db; clock: Clock; jobId: string; merged: boolean }): Promise<number> {
  const now = params.clock();
  const where = { jobId: params.jobId, status: 'in_progress' };
  const data = params.merged
    ? { status: 'fixed', fixedAt: now, updatedAt: now }
    : { status: 'open', fixKey: null, jobId: null, updatedAt: now };
  return params.db.$transaction(async (tx) => {
    const rows = await tx.problemState.findMany({ where });
    const { count } = await tx.problemState.updateMany({
      where: { ...where, id: { in: rows.map((r) => r.id) } },
      data,
    });
    for (const before of rows) await recordProblemChange(tx, { before, after: { ...before, ...data }, at: now });
    return count;
  });
}

/**
 * The outcome signal that tells whether the fix of a problem of each kind worked; a search gap's own is its query's
 * click-through (settleOutcome's `searchGaps`), traffic only for a gap whose query the job did not record.
 */
const METRIC_OF: Record<ProblemKind, 'traffic' | 'misses' | 'helpful'> = {
  'missing-page': 'misses',
  'negative-feedback': 'helpful',
  'search-gap': 'traffic',
  'stale-page': 'traffic',
};

/**
 * A merged fix measured over a complete window: its `fixed` problems become `verified` when their signal improved
 * and `regressed` when it got worse; otherwise (no change, too little data) they stay `fixed`. A later, longer window
 * may still move them between the two.
 */
export async function settleOutcome(params: {
  db: Db | DbTransaction;
  clock: Clock;
  jobId: string;
  changes: Record<'traffic' | 'misses' | 'helpful', string>;
  /** the click-through change of each search-gap problem's query, by problem id */
  searchGaps?: ReadonlyMap<string, string>;
}): Promise<SettledProblem[]> {
  const { db, jobId, changes } = params;
  const now = params.clock();
  const moved: SettledProblem[] = [];
  const rows = await db.problemState.findMany({
    where: { jobId, status: { in: ['fixed', 'verified', 'regressed'] } },
    select: { projectId: true, id: true, kind: true, status: true },
    orderBy: [{ projectId: 'asc' }, { id: 'asc' }],
  });
  for (const row of rows) {
    const kind = row.kind as ProblemKind;
    const change = (kind === 'search-gap' && params.searchGaps?.get(row.id)) || changes[METRIC_OF[kind]];
    const status = change === 'improved' ? ('verified' as const) : change === 'worse' ? ('regressed' as const) : null;
    if (!status || status === row.status) continue;
    const { count } = await db.problemState.updateMany({
      where: { projectId: row.projectId, id: row.id, jobId, status: row.status },
      data: { status, updatedAt: now },
    });
    if (count) moved.push({ projectId: row.projectId, id: row.id, kind, from: row.status, to: status });
  }
  return moved;
}

/** A problem a merged fix's outcome moved. */
export interface SettledProblem {
  projectId: string;
  id: string;
  kind: ProblemKind;
  from: string;
  to: 'verified' | 'regressed';
}

/**
 * The problems an automation's run handed to its job (a new one, or its open pull request's): `in_progress` with the
 * job, unless a fix already holds them.
 */
export async function assignJob(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  problems: { id: string; kind: ProblemKind }[];
  jobId: string;
}): Promise<void> {
  const { db, projectId, jobId } = params;
  const now = params.clock();
  const data = { status: 'in_progress', fixKey: null, jobId, fixedAt: null, updatedAt: now };
  for (const problem of params.problems) {
    const where = { projectId, id: problem.id, status: { not: 'in_progress' } };
    const updated = await db.$transaction(async (tx) => {
      const before = await tx.problemState.findFirst({ where });
      if (!before) return false;
      const { count } = await tx.problemState.updateMany({ where: { ...where, status: before.status }, data });
      if (count) await recordProblemChange(tx, { before, after: { ...before, ...data }, at: now });
      return count > 0;
    });
    if (updated) continue;
    try {
      await db.$transaction(async (tx) => {
        const after = await tx.problemState.create({
          data: { projectId, id: problem.id, kind: problem.kind, ...data, createdAt: now },
        });
        await recordProblemChange(tx, { before: null, after, at: now });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}
