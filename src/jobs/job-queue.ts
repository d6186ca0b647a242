import type { Db, DbTransaction } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import { LeaseQueue, type LeaseHolder } from '../db/lease-queue.js';
import { recordEvent } from '../notifications/record-event.js';
import { appendEvent, toJobRecord, type JobRecord } from './job-store.js';
import { statusesBefore, type JobStage } from './job-status.js';

/**
 * The work queue over AgentJob: an `active` job with no live lease needs a worker. Claiming takes a lease;
 * the holder renews it by heartbeat; a crashed holder's lease simply expires and the job is claimed again.
 */
export interface QueueParams {
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  workerId: string;
  leaseMs: number;
}

/** AgentJob as a lease queue: an `active` job with no live lease needs a worker; a claim also marks it updated. */
const JOBS = new LeaseQueue({ table: 'AgentJob', waiting: 'active', orderBy: 'updatedAt', stamp: ['updatedAt'] });

const holder = (params: QueueParams): LeaseHolder => ({ ...params, owner: params.workerId });

/**
 * A run's end moves the job's status and stores its closing event (`completed`, `requeued`, `failed`) in one
 * transaction: a client that sees the status also sees the event that explains it, never the one without the other.
 * Prisma's defaults (2 s to start, 5 s to run) are tight for SQLite, where every writer of the process shares one
 * connection: a busy machine would turn the end into an error instead of a short wait.
 */
const END_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

/** Claims up to `limit` jobs; concurrent claimers never share one (see db/lease-queue.ts). */
export async function claimJobs(params: QueueParams & { limit: number }): Promise<JobRecord[]> {
  const claimed = await JOBS.claim({ ...holder(params), limit: params.limit });
  if (!claimed.length) return [];
  const rows = await params.db.agentJob.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toJobRecord);
}

export type HeartbeatResult = 'held' | 'archived' | 'lost';

/** Renews the lease; tells the holder to stop if the job was archived or the lease went to someone else. */
export async function renewLease(params: QueueParams & { jobId: string }): Promise<HeartbeatResult> {
  if (await JOBS.renew({ ...holder(params), id: params.jobId })) return 'held';
  const row = await params.db.agentJob.findUnique({ where: { id: params.jobId }, select: { status: true } });
  return row?.status === 'archived' ? 'archived' : 'lost';
}

/** Gives a job back untouched (graceful shutdown): the claim does not count as an attempt. */
export async function releaseLease(params: QueueParams & { jobId: string }): Promise<void> {
  await JOBS.release({ ...holder(params), id: params.jobId, refund: true });
}

/**
 * Ends a run that succeeded. If follow-ups arrived while it ran, the job stays active and unleased so the next
 * claim runs them; otherwise it is completed. No-op when the lease was lost or the job archived meanwhile.
 */
export async function finishRun(
  params: QueueParams & {
    jobId: string;
    handledSeq: number;
    result: { prNumber: number | null; prLink: string | null; title: string | null; summary: string | null };
  },
): Promise<'completed' | 'requeued' | 'dropped'> {
  const { db, clock, workerId, jobId, handledSeq, result } = params;
  // a run may only end a job that may still be completed (which is exactly an active one)
  const held = { id: jobId, leaseOwner: workerId, status: { in: statusesBefore('completed') } };
  for (;;) {
    const job = await db.agentJob.findFirst({ where: held, select: { updatedAt: true } });
    if (!job) break;
    const pending = await db.agentJobMessage.count({ where: { jobId, seq: { gt: handledSeq } } });
    const outcome = pending > 0 ? 'requeued' : 'completed';
    // A follow-up accepted after the count above bumps updatedAt, so this update misses and the loop looks again.
    const count = await db.$transaction(async (tx) => {
      const { count } = await tx.agentJob.updateMany({
        where: { ...held, updatedAt: job.updatedAt },
        data: {
          status: outcome === 'completed' ? 'completed' : 'active',
          handledSeq,
          title: result.title,
          summary: result.summary,
          ...(result.prLink ? { prNumber: result.prNumber, prLink: result.prLink } : {}),
          leaseOwner: null,
          leaseExpiresAt: null,
          attempts: 0,
          runsCompleted: { increment: 1 },
          updatedAt: clock(),
        },
      });
      if (count === 1) {
        await appendEvent({ db: tx, clock, jobId, type: outcome, data: { prLink: result.prLink } });
        if (outcome === 'completed') await statusChanged(tx, jobId);
      }
      return count;
    }, END_TRANSACTION);
    if (count === 1) return outcome;
  }
  // Archived or taken over meanwhile; the pull request exists all the same, so its link is kept.
  if (result.prLink)
    await db.agentJob.update({ where: { id: jobId }, data: { prNumber: result.prNumber, prLink: result.prLink } });
  return 'dropped';
}

export async function failRun(
  params: QueueParams & { jobId: string; error: string; stage: JobStage },
): Promise<boolean> {
  const { db, clock, workerId, jobId } = params;
  return db.$transaction(async (tx) => {
    const { count } = await tx.agentJob.updateMany({
      where: { id: jobId, leaseOwner: workerId, status: { in: statusesBefore('failed') } },
      data: {
        status: 'failed',
        error: params.error,
        errorStage: params.stage,
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: 0,
        updatedAt: clock(),
      },
    });
    if (count === 1) {
      await appendEvent({ db: tx, clock, jobId, type: 'failed', data: { stage: params.stage, error: params.error } });
      await statusChanged(tx, jobId);
    }
    return count === 1;
  }, END_TRANSACTION);
}

/** The outgoing webhook's `job.status_changed`, in the transaction that ended the run (an active job's run). */
async function statusChanged(tx: DbTransaction, jobId: string): Promise<void> {
  const job = toJobRecord(await tx.agentJob.findUniqueOrThrow({ where: { id: jobId } }));
  const data = { job, previousStatus: 'active' };
  await recordEvent(tx, { projectId: job.projectId, type: 'job.status_changed', at: job.updatedAt, data });
}
