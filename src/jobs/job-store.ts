import pRetry from 'p-retry';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { Db, DbTransaction } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { Conflict, NotFound } from '../errors.js';
import { isJobStatus, statusesBefore, type JobStatus } from './job-status.js';
import { recordEvent } from '../notifications/record-event.js';

/** A job as the rest of Scribe sees it (the table is this module's own). */
export interface JobRecord {
  id: string;
  projectId: string;
  status: JobStatus;
  repository: string;
  baseRef: string;
  branch: string;
  model: string;
  draft: boolean;
  prNumber: number | null;
  prLink: string | null;
  error: string | null;
  errorStage: string | null;
  title: string | null;
  summary: string | null;
  inputTokens: number;
  outputTokens: number;
  /** JSON: what started the job beyond its prompt (the problems of a fix), as its creator gave it */
  cause: string | null;
  attempts: number;
  runsCompleted: number;
  handledSeq: number;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

export interface JobMessage {
  seq: number;
  prompt: string;
  createdAt: Date;
}

const JOB_NOT_FOUND = 'Job not found';

// Writers of one job wait for each other's transaction: more than Prisma's 2 s to start one, on a busy SQLite.
const MESSAGE_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

type JobRow = Awaited<ReturnType<Db['agentJob']['findUniqueOrThrow']>>;

export function toJobRecord(row: JobRow): JobRecord {
  const { leaseOwner: _owner, leaseExpiresAt: _expires, status, ...rest } = row;
  return { ...rest, status: isJobStatus(status) ? status : 'failed' };
}

export async function createJob(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  repository: string;
  baseRef: string;
  branch: (id: string) => string;
  model: string;
  draft: boolean;
  prompt: string;
  /** see `AgentJobMessage.requestKey`: a job already created under this key is returned instead */
  requestKey?: string;
  /** kept as JSON on the job */
  cause?: unknown;
}): Promise<JobRecord> {
  const { db, clock } = params;
  const requestKey = params.requestKey ?? null;
  if (requestKey !== null) {
    const earlier = await messageByRequestKey(db, params.projectId, requestKey);
    if (earlier) return earlier.job;
  }
  const now = clock();
  const id = randomId('job');
  // the job, its first message, its first event and the outgoing webhook's outbox row exist together or not at all
  const created = db.$transaction(async (tx) => {
    const row = await tx.agentJob.create({
      data: {
        id,
        projectId: params.projectId,
        status: 'active',
        repository: params.repository,
        baseRef: params.baseRef,
        branch: params.branch(id),
        model: params.model,
        draft: params.draft,
        cause: params.cause === undefined ? null : JSON.stringify(params.cause),
        createdAt: now,
        updatedAt: now,
      },
    });
    await tx.agentJobMessage.create({
      data: {
        id: randomId('msg'),
        jobId: id,
        projectId: params.projectId,
        seq: 1,
        prompt: params.prompt,
        requestKey,
        createdAt: now,
      },
    });
    await tx.agentJobEvent.create({
      data: {
        jobId: id,
        type: 'created',
        data: JSON.stringify({ model: params.model, ref: params.baseRef }),
        createdAt: now,
      },
    });
    const job = toJobRecord(row);
    await recordEvent(tx, {
      projectId: job.projectId,
      type: 'job.created',
      at: now,
      data: { job, prompt: params.prompt },
    });
    return job;
  }, MESSAGE_TRANSACTION);
  try {
    return await created;
  } catch (err) {
    // the same request, asked twice at once: the unique key let one in, and this one returns what it created
    const earlier =
      requestKey !== null && isUniqueViolation(err)
        ? await messageByRequestKey(db, params.projectId, requestKey)
        : null;
    if (earlier) return earlier.job;
    throw err;
  }
}

/** The message a request of this key added, and its job. */
export async function messageByRequestKey(
  db: Db,
  projectId: string,
  requestKey: string,
): Promise<{ job: JobRecord; seq: number } | null> {
  const row = await db.agentJobMessage.findUnique({
    where: { projectId_requestKey: { projectId, requestKey } },
    select: { seq: true, job: true },
  });
  return row ? { job: toJobRecord(row.job), seq: row.seq } : null;
}

/** A job of this project, or NotFound with the exact sentence of the contract (also for other projects' jobs). */
export async function getJob(db: Db, projectId: string, id: string): Promise<JobRecord> {
  const row = await db.agentJob.findUnique({ where: { id } });
  if (!row || row.projectId !== projectId) throw new NotFound(JOB_NOT_FOUND);
  return toJobRecord(row);
}

/** The original instruction (message 1) of each job. */
export async function originalPrompts(db: Db, jobIds: string[]): Promise<Map<string, string>> {
  const rows = await db.agentJobMessage.findMany({
    where: { jobId: { in: jobIds }, seq: 1 },
    select: { jobId: true, prompt: true },
  });
  return new Map(rows.map((r) => [r.jobId, r.prompt]));
}

export async function listJobs(params: {
  db: Db;
  projectId: string;
  status?: JobStatus;
  limit: number;
  offset: number;
}): Promise<{ jobs: JobRecord[]; hasMore: boolean }> {
  const rows = await params.db.agentJob.findMany({
    where: { projectId: params.projectId, ...(params.status ? { status: params.status } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: params.offset,
    take: params.limit + 1,
  });
  return { jobs: rows.slice(0, params.limit).map(toJobRecord), hasMore: rows.length > params.limit };
}

/**
 * The job a pull request belongs to: by the number recorded on the job, else by its branch (a pull_request
 * delivery can arrive before the run that opened the pull request has recorded it).
 */
export async function findJobByPullRequest(params: {
  db: Db;
  repository: string;
  number: number;
  branch?: string;
}): Promise<JobRecord | null> {
  const { db, repository, number, branch } = params;
  const row = await db.agentJob.findFirst({
    where: { repository, OR: [{ prNumber: number }, ...(branch ? [{ branch }] : [])] },
    orderBy: { createdAt: 'desc' },
  });
  return row ? toJobRecord(row) : null;
}

export async function findJobStatus(db: Db, id: string): Promise<JobStatus | null> {
  const row = await db.agentJob.findUnique({ where: { id }, select: { status: true } });
  return row && isJobStatus(row.status) ? row.status : null;
}

export async function listMessages(db: Db, jobId: string): Promise<JobMessage[]> {
  return db.agentJobMessage.findMany({
    where: { jobId },
    orderBy: { seq: 'asc' },
    select: { seq: true, prompt: true, createdAt: true },
  });
}

/**
 * A follow-up instruction. An active job keeps it queued (its worker runs again after the current run); a
 * completed or failed job becomes active again; an archived job refuses it.
 */
export async function addMessage(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  jobId: string;
  prompt: string;
  /** see `AgentJobMessage.requestKey`: a message already added under this key is returned instead */
  requestKey?: string;
}): Promise<{ job: JobRecord; seq: number }> {
  const { db, clock, projectId, jobId } = params;
  const requestKey = params.requestKey ?? null;
  const attempt = async (): Promise<{ job: JobRecord; seq: number }> => {
    if (requestKey !== null) {
      const earlier = await messageByRequestKey(db, projectId, requestKey);
      if (earlier) return earlier;
    }
    const job = await getJob(db, projectId, jobId);
    if (job.status === 'archived') throw new Conflict('Job is archived; create a new job instead');
    const now = clock();
    const reactivate = job.status !== 'active';
    return db.$transaction(async (tx) => {
      // The job's row is written first: that holds it (PostgreSQL's row lock; SQLite has one writer) until the
      // commit, so follow-ups of one job sent at once take their seq one after another instead of racing for it.
      const row = await tx.agentJob.update({
        // The status read above must still hold: a job archived meanwhile is not reactivated (the retry refuses it).
        where: { id: jobId, status: reactivate ? { in: statusesBefore('active') } : 'active' },
        data: reactivate
          ? {
              status: 'active',
              error: null,
              errorStage: null,
              attempts: 0,
              leaseOwner: null,
              leaseExpiresAt: null,
              updatedAt: now,
            }
          : { updatedAt: now },
      });
      const last = await tx.agentJobMessage.findFirst({
        where: { jobId },
        orderBy: { seq: 'desc' },
        select: { seq: true },
      });
      const seq = (last?.seq ?? 0) + 1;
      await tx.agentJobMessage.create({
        data: { id: randomId('msg'), jobId, projectId, seq, prompt: params.prompt, requestKey, createdAt: now },
      });
      await tx.agentJobEvent.create({
        data: { jobId, type: 'message', data: JSON.stringify({ seq, queued: !reactivate }), createdAt: now },
      });
      const updated = toJobRecord(row);
      const message = { seq, prompt: params.prompt, createdAt: now };
      await recordEvent(tx, { projectId, type: 'job.message_added', at: now, data: { job: updated, message } });
      if (reactivate)
        await recordEvent(tx, {
          projectId,
          type: 'job.status_changed',
          at: now,
          data: { job: updated, previousStatus: job.status },
        });
      return { job: updated, seq };
    }, MESSAGE_TRANSACTION);
  };
  return pRetry(attempt, {
    retries: 3,
    minTimeout: 0,
    // The job's status changed since it was read (the update finds no row), or the same request was added at once
    // by another caller (the key is taken): the next attempt sees it as it is now.
    shouldRetry: ({ error }) => isRecordNotFound(error) || (requestKey !== null && isUniqueViolation(error)),
  });
}

/** Archives a job (idempotent). A worker running it notices at its next heartbeat and stops the agent. */
export async function archiveJob(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  jobId: string;
}): Promise<JobRecord> {
  const { db, clock, projectId, jobId } = params;
  const job = await getJob(db, projectId, jobId);
  if (job.status === 'archived') return job;
  const now = clock();
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.agentJob.update({
        where: { id: jobId, status: { in: statusesBefore('archived') } },
        data: { status: 'archived', archivedAt: now, updatedAt: now },
      });
      await tx.agentJobEvent.create({
        data: { jobId, type: 'archived', data: JSON.stringify({ from: job.status }), createdAt: now },
      });
      const archived = toJobRecord(row);
      const data = { job: archived, previousStatus: job.status };
      await recordEvent(tx, { projectId, type: 'job.status_changed', at: now, data });
      return archived;
    }, MESSAGE_TRANSACTION);
  } catch (err) {
    // Archived by someone else since it was read: archiving is idempotent.
    if (isRecordNotFound(err)) return getJob(db, projectId, jobId);
    throw err;
  }
}

/** Prisma's P2025: an update's WHERE (here, the status it expects) matched no row. */
function isRecordNotFound(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 'P2025';
}

export interface JobEvent {
  id: number;
  type: string;
  createdAt: string;
  [field: string]: unknown;
}

/** Stores one event; `db` may be a transaction, so an event can be stored with the change it reports. */
export async function appendEvent(params: {
  db: DbTransaction;
  clock: Clock;
  jobId: string;
  type: string;
  data?: Record<string, unknown>;
}): Promise<void> {
  await params.db.agentJobEvent.create({
    data: {
      jobId: params.jobId,
      type: params.type,
      data: JSON.stringify(params.data ?? {}),
      createdAt: params.clock(),
    },
  });
}

/**
 * Event ids are 64-bit columns on both databases, handed out upward from 1. The API gives them as JSON numbers,
 * exact up to 2^53 - 1, which no id reaches (2^53 events would be 750,000 years of a billion a month): a cursor at
 * or past that has nothing after it, and every id below it reaches the database exactly.
 */
export const MAX_EVENT_ID = Number.MAX_SAFE_INTEGER;

/** A job's events after `afterId` (any non-negative integer; past the ids handed out there is simply nothing). */
export async function listEvents(params: {
  db: Db;
  jobId: string;
  afterId?: number;
  limit?: number;
}): Promise<JobEvent[]> {
  if (params.afterId !== undefined && params.afterId >= MAX_EVENT_ID) return [];
  const rows = await params.db.agentJobEvent.findMany({
    where: { jobId: params.jobId, ...(params.afterId ? { id: { gt: params.afterId } } : {}) },
    orderBy: { id: 'asc' },
    take: params.limit ?? 1000,
  });
  // a bigint on PostgreSQL, a number on SQLite (whose Prisma type is Int: see scripts/db-generate.ts)
  return rows.map((row) => ({
    ...(JSON.parse(row.data) as Record<string, unknown>),
    id: Number(row.id),
    type: row.type,
    createdAt: row.createdAt.toISOString(),
  }));
}
