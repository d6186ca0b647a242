import type { Db, DbTransaction } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { DAY_MS } from '../calendar.js';
import { recordEvent } from '../notifications/record-event.js';

export type RunStatus =
  | 'running'
  | 'pull_request_opened'
  | 'pull_request_updated'
  | 'no_changes'
  | 'failed'
  | 'skipped';
export type RunTrigger = 'push' | 'schedule' | 'manual' | 'feedback' | 'pull_request' | 'problems';

export interface AutomationRun {
  id: string;
  projectId: string;
  automationId: string;
  dedupeKey: string;
  trigger: RunTrigger;
  repository: string | null;
  beforeSha: string | null;
  /** a push's after-sha; a pull request run's head commit */
  afterSha: string | null;
  /** the source pull request of a pull_request run (a docs draft) */
  pullNumber: number | null;
  /** the docs page of a feedback run */
  page: string | null;
  /** the page's last feedback row a feedback run covers (null for a run started by a late comment alone) */
  feedbackThrough: number | null;
  change: string | null;
  summary: string;
  status: RunStatus;
  reason: string | null;
  jobId: string | null;
  seq: number | null;
  prLink: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<Db['automationRun']['findUniqueOrThrow']>>;
const toRun = (row: Row): AutomationRun => ({
  ...row,
  trigger: row.trigger as RunTrigger,
  status: row.status as RunStatus,
});

/**
 * What a claim needs to decide the run's status under the daily cap: the database (the decision is serialised per
 * automation there) and the cap itself.
 */
export interface RunCap {
  database: DatabaseTarget;
  /** runs one automation may start per 24 hours (AUTOMATION_RUNS_PER_DAY) */
  runsPerDay: number;
}

// Prisma's defaults (2 s to start a transaction) are tight when many triggers queue for the same automation's lock.
const CLAIM_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };
// The first key of the two-key advisory lock (the second is the automation's hash): PostgreSQL keeps two-key locks
// apart from the one-key locks the migrator and the analytics writer take.
const CAP_LOCK_CLASS = 19_031;

/**
 * Records a run for its trigger, `running` while the automation has started fewer than `runsPerDay` runs in the last
 * 24 hours and `skipped` (saying why) beyond; null when a run with the same key exists (a redelivered push, a schedule
 * slot another process claimed): the unique index decides, so exactly one caller gets the row. The count and the
 * insert are one transaction that holds the automation's lock (an advisory lock on PostgreSQL; SQLite runs one
 * writing transaction at a time), so concurrent claims start exactly as many runs as the cap has room for.
 */
export async function claimRun(
  params: RunCap & {
    db: Db;
    clock: Clock;
    run: Pick<AutomationRun, 'projectId' | 'automationId' | 'dedupeKey' | 'trigger'> &
      Partial<
        Pick<
          AutomationRun,
          'repository' | 'beforeSha' | 'afterSha' | 'pullNumber' | 'page' | 'feedbackThrough' | 'change'
        >
      > &
      Pick<AutomationRun, 'summary'>;
  },
): Promise<AutomationRun | null> {
  const { db, database, runsPerDay, run } = params;
  const now = params.clock();
  try {
    const row = await db.$transaction(async (tx) => {
      if (database.provider === 'postgresql')
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CAP_LOCK_CLASS}::int, hashtext(${`${run.projectId}/${run.automationId}`}))`;
      const started = await countRunsSince({
        db: tx,
        projectId: run.projectId,
        automationId: run.automationId,
        since: new Date(now.getTime() - DAY_MS),
      });
      const over = started >= runsPerDay;
      const created = await tx.automationRun.create({
        data: {
          id: randomId('arun'),
          ...run,
          status: over ? 'skipped' : 'running',
          reason: over
            ? `over the daily cap of ${runsPerDay} runs for this automation (AUTOMATION_RUNS_PER_DAY)`
            : null,
          createdAt: now,
          updatedAt: now,
        },
      });
      // a run skipped over the cap starts and ends at once
      await recordEvent(tx, {
        projectId: run.projectId,
        type: 'automation.run_started',
        at: now,
        data: { run: created },
      });
      if (over)
        await recordEvent(tx, {
          projectId: run.projectId,
          type: 'automation.run_finished',
          at: now,
          data: { run: created },
        });
      return created;
    }, CLAIM_TRANSACTION);
    return toRun(row);
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * A `running` run that never got its job: the process that claimed it died between the claim and the job request.
 * Taken over (compare-and-set on `updatedAt`, so one caller wins) once it is older than `stalledBefore`; `starting`
 * while it is younger (its claimer may still be asking for the job); null when the key's run has its job or is done.
 */
export async function adoptStalledRun(params: {
  db: Db;
  clock: Clock;
  key: Pick<AutomationRun, 'projectId' | 'automationId' | 'dedupeKey'>;
  stalledBefore: Date;
}): Promise<AutomationRun | 'starting' | null> {
  const { db, key } = params;
  const row = await db.automationRun.findUnique({ where: { projectId_automationId_dedupeKey: key } });
  if (row?.status !== 'running' || row.jobId !== null) return null;
  if (row.updatedAt >= params.stalledBefore) return 'starting';
  const { count } = await db.automationRun.updateMany({
    where: { id: row.id, status: 'running', jobId: null, updatedAt: row.updatedAt },
    data: { updatedAt: params.clock() },
  });
  return count === 1 ? toRun(await db.automationRun.findUniqueOrThrow({ where: { id: row.id } })) : null;
}

export async function updateRun(params: {
  db: Db;
  clock: Clock;
  id: string;
  data: Partial<Pick<AutomationRun, 'status' | 'reason' | 'jobId' | 'seq' | 'prLink'>>;
}): Promise<AutomationRun> {
  const now = params.clock();
  const write = {
    where: { id: params.id },
    data: { ...params.data, reason: params.data.reason?.slice(0, 1000), updatedAt: now },
  };
  if (params.data.status === undefined || params.data.status === 'running')
    return toRun(await params.db.automationRun.update(write));
  // the run's end and the outgoing webhook's event are one write
  const row = await params.db.$transaction(async (tx) => {
    const ended = await tx.automationRun.update(write);
    await recordEvent(tx, {
      projectId: ended.projectId,
      type: 'automation.run_finished',
      at: now,
      data: { run: ended },
    });
    return ended;
  });
  return toRun(row);
}

export async function runExists(db: Db, projectId: string, automationId: string, dedupeKey: string): Promise<boolean> {
  return (await db.automationRun.count({ where: { projectId, automationId, dedupeKey } })) > 0;
}

/**
 * For each page, the last feedback row the automation's feedback runs covered (0 when none did): thresholds count
 * the page's feedback after it. Read from the runs themselves, so it moves exactly when a run is claimed.
 */
export async function feedbackCoveredThrough(params: {
  db: Db;
  projectId: string;
  automationId: string;
  pages: string[];
}): Promise<Map<string, number>> {
  const rows = await params.db.automationRun.groupBy({
    by: ['page'],
    where: {
      projectId: params.projectId,
      automationId: params.automationId,
      trigger: 'feedback',
      page: { in: params.pages },
    },
    _max: { feedbackThrough: true },
  });
  const covered = new Map(params.pages.map((page) => [page, 0]));
  for (const row of rows) if (row.page !== null) covered.set(row.page, row._max.feedbackThrough ?? 0);
  return covered;
}

/** Runs counted against the daily cap: every run since `since` that was not skipped. */
async function countRunsSince(params: {
  db: DbTransaction;
  projectId: string;
  automationId: string;
  since: Date;
}): Promise<number> {
  return params.db.automationRun.count({
    where: {
      projectId: params.projectId,
      automationId: params.automationId,
      createdAt: { gte: params.since },
      status: { not: 'skipped' },
    },
  });
}

/**
 * The automation's latest run that became a job: its job is the one later runs extend while its PR is open. Docs
 * drafts' runs (`pull_request`) have a job per source pull request and never count.
 */
export async function lastJobRun(db: Db, projectId: string, automationId: string): Promise<AutomationRun | null> {
  const row = await db.automationRun.findFirst({
    where: { projectId, automationId, jobId: { not: null }, trigger: { not: 'pull_request' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return row ? toRun(row) : null;
}

/** Runs of a job still `running`; the job's run that ends settles those whose message it carried out. */
export async function runningRunsOfJob(db: Db, jobId: string): Promise<AutomationRun[]> {
  return (await db.automationRun.findMany({ where: { jobId, status: 'running' }, orderBy: { seq: 'asc' } })).map(toRun);
}

export async function findRunByJob(db: Db, jobId: string): Promise<AutomationRun | null> {
  const row = await db.automationRun.findFirst({ where: { jobId }, orderBy: { createdAt: 'desc' } });
  return row ? toRun(row) : null;
}

/** Runs of a job in the order they were asked for (the PR description lists the changes they cover). */
export async function runsOfJob(db: Db, jobId: string): Promise<AutomationRun[]> {
  return (await db.automationRun.findMany({ where: { jobId }, orderBy: [{ seq: 'asc' }, { createdAt: 'asc' }] })).map(
    toRun,
  );
}

export async function listRuns(params: {
  db: Db;
  projectId: string;
  automationId?: string;
  limit: number;
  offset: number;
}): Promise<{ runs: AutomationRun[]; total: number }> {
  const where = { projectId: params.projectId, ...(params.automationId ? { automationId: params.automationId } : {}) };
  const [rows, total] = await Promise.all([
    params.db.automationRun.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: params.limit,
      skip: params.offset,
    }),
    params.db.automationRun.count({ where }),
  ]);
  return { runs: rows.map(toRun), total };
}

/** The run of a trigger's key (a docs draft's first run, say), whoever claimed it. */
export async function findRunByKey(
  db: Db,
  key: Pick<AutomationRun, 'projectId' | 'automationId' | 'dedupeKey'>,
): Promise<AutomationRun | null> {
  const row = await db.automationRun.findUnique({ where: { projectId_automationId_dedupeKey: key } });
  return row ? toRun(row) : null;
}
