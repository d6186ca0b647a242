import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';

/** A GitHub comment that became a job message, and where Scribe answers it. */
export interface Trigger {
  id: string;
  jobId: string;
  seq: number;
  kind: 'follow_up' | 'command';
  repository: string;
  installationId: number;
  issueNumber: number;
  reviewCommentId: number | null;
  path: string | null;
  line: number | null;
  commentId: number;
  /** who wrote the comment; mentioned in the reply */
  author: string | null;
  repliedAt: Date | null;
  createdAt: Date;
}

export async function saveTrigger(params: {
  db: Db;
  clock: Clock;
  trigger: Omit<Trigger, 'id' | 'repliedAt' | 'createdAt'>;
}): Promise<Trigger> {
  const row = await params.db.gitHubTrigger.create({
    data: { id: randomId('trg'), ...params.trigger, createdAt: params.clock() },
  });
  return toTrigger(row);
}

export async function findTrigger(db: Db, jobId: string, seq: number): Promise<Trigger | null> {
  const row = await db.gitHubTrigger.findUnique({ where: { jobId_seq: { jobId, seq } } });
  return row ? toTrigger(row) : null;
}

/** The trigger a comment already became, if any: a retried delivery of the comment must not act on it again. */
export async function findTriggerByComment(db: Db, repository: string, commentId: number): Promise<Trigger | null> {
  const row = await db.gitHubTrigger.findFirst({ where: { repository, commentId } });
  return row ? toTrigger(row) : null;
}

/** Triggers of the job up to `seq` still owed a reply. */
export async function pendingTriggers(db: Db, jobId: string, uptoSeq: number): Promise<Trigger[]> {
  const rows = await db.gitHubTrigger.findMany({
    where: { jobId, repliedAt: null, seq: { lte: uptoSeq } },
    orderBy: { seq: 'asc' },
  });
  return rows.map(toTrigger);
}

/** Claims a trigger's reply; false when another process (or an earlier call) already did, so a reply is posted once. */
export async function claimReply(params: { db: Db; clock: Clock; id: string }): Promise<boolean> {
  const { count } = await params.db.gitHubTrigger.updateMany({
    where: { id: params.id, repliedAt: null },
    data: { repliedAt: params.clock() },
  });
  return count === 1;
}

type TriggerRow = Awaited<ReturnType<Db['gitHubTrigger']['findUniqueOrThrow']>>;

function toTrigger(row: TriggerRow): Trigger {
  return { ...row, kind: row.kind === 'command' ? 'command' : 'follow_up' };
}
