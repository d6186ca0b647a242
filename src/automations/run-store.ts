import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';

export type RunStatus = 'running' | 'pull_request_opened' | 'pull_request_updated' | 'no_changes' | 'failed' | 'skipped';
export type RunTrigger = 'push' | 'schedule' | 'manual' | 'feedback';

export interface AutomationRun {
  id: string;
  projectId: string;
  automationId: string;
  dedupeKey: string;
  trigger: RunTrigger;
  repository: string | null;
  beforeSha: string | null;
  afterSha: string | null;
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
const toRun = (row: Row): AutomationRun => ({ ...row, trigger: row.trigger as RunTrigger, status: row.status as RunStatus });

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'P2002' || /unique/i.test(String((err as Error)?.message));
}

/**
 * Records a run for its trigger; null when a run with the same key exists (a redelivered push, a schedule slot
 * another process claimed): the unique index decides, so exactly one caller gets the row.
 */
export async function claimRun(params: {
  db: Db;
  clock: Clock;
  run: Pick<AutomationRun, 'projectId' | 'automationId' | 'dedupeKey' | 'trigger'> &
    Partial<Pick<AutomationRun, 'repository' | 'beforeSha' | 'afterSha' | 'page' | 'feedbackThrough' | 'change'>> &
    Pick<AutomationRun, 'summary'>;
}): Promise<AutomationRun | null> {
  const now = params.clock();
  try {
    const row = await params.db.automationRun.create({ data: { id: randomId('arun'), status: 'running', ...params.run, createdAt: now, updatedAt: now } });
    return toRun(row);
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function updateRun(params: { db: Db; clock: Clock; id: string; data: Partial<Pick<AutomationRun, 'status' | 'reason' | 'jobId' | 'seq' | 'prLink'>> }): Promise<AutomationRun> {
  const row = await params.db.automationRun.update({ where: { id: params.id }, data: { ...params.data, reason: params.data.reason?.slice(0, 1000), updatedAt: params.clock() } });
  return toRun(row);
}

export async function runExists(db: Db, projectId: string, automationId: string, dedupeKey: string): Promise<boolean> {
  return (await db.automationRun.count({ where: { projectId, automationId, dedupeKey } })) > 0;
}

/**
 * For each page, the last feedback row the automation's feedback runs covered (0 when none did): thresholds count
 * the page's feedback after it. Read from the runs themselves, so it moves exactly when a run is claimed.
 */
export async function feedbackCoveredThrough(params: { db: Db; projectId: string; automationId: string; pages: string[] }): Promise<Map<string, number>> {
  const rows = await params.db.automationRun.groupBy({
    by: ['page'],
    where: { projectId: params.projectId, automationId: params.automationId, trigger: 'feedback', page: { in: params.pages } },
    _max: { feedbackThrough: true },
  });
  const covered = new Map(params.pages.map((page) => [page, 0]));
  for (const row of rows) if (row.page !== null) covered.set(row.page, row._max.feedbackThrough ?? 0);
  return covered;
}

/** Runs counted against the daily cap: every run since `since` that was not skipped. */
export async function countRunsSince(params: { db: Db; projectId: string; automationId: string; since: Date }): Promise<number> {
  return params.db.automationRun.count({ where: { projectId: params.projectId, automationId: params.automationId, createdAt: { gte: params.since }, status: { not: 'skipped' } } });
}

/** The automation's latest run that became a job: its job is the one later runs extend while its PR is open. */
export async function lastJobRun(db: Db, projectId: string, automationId: string): Promise<AutomationRun | null> {
  const row = await db.automationRun.findFirst({ where: { projectId, automationId, jobId: { not: null } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
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
  return (await db.automationRun.findMany({ where: { jobId }, orderBy: [{ seq: 'asc' }, { createdAt: 'asc' }] })).map(toRun);
}

export async function listRuns(params: { db: Db; projectId: string; automationId?: string; limit: number; offset: number }): Promise<{ runs: AutomationRun[]; total: number }> {
  const where = { projectId: params.projectId, ...(params.automationId ? { automationId: params.automationId } : {}) };
  const [rows, total] = await Promise.all([
    params.db.automationRun.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: params.limit, skip: params.offset }),
    params.db.automationRun.count({ where }),
  ]);
  return { runs: rows.map(toRun), total };
}
