import type { Sql } from './sql.js';
import { bumpSignalsVersion } from './signals-version.js';

/** A request answered 404 or 410, a human's or an AI agent's, as stored: the visitor's keyed hash, never an address. */
export interface StoredPageMiss {
  /** idempotency key of its log line (or beacon) */
  key: string;
  ts: number;
  path: string;
  class: 'human' | 'ai';
  /** the AI agent; null for a human */
  agent: string | null;
  /** AI only: whether its address is in its operator's published ranges */
  verified: boolean | null;
  status: number;
  visitorHash: string;
}

/** Stores each miss once per key (importing a log again adds nothing); returns how many were new. */
export async function insertPageMisses(sql: Sql, params: { projectId: string; misses: StoredPageMiss[] }) {
  const { projectId, misses } = params;
  if (!misses.length) return 0;
  const inserted = await sql.transaction(async (tx) => {
    const stored = await tx.insertMany<{ key: string }>({
      table: 'AnalyticsPageMiss',
      columns: [
        ['projectId', 'text'],
        ['key', 'text'],
        ['ts', 'bigint'],
        ['path', 'text'],
        ['class', 'text'],
        ['agent', 'text'],
        ['verified', 'int'],
        ['status', 'int'],
        ['visitorHash', 'text'],
      ],
      rows: misses.map((m) => [
        projectId,
        m.key,
        m.ts,
        m.path,
        m.class,
        m.agent,
        m.verified === null ? null : Number(m.verified),
        m.status,
        m.visitorHash,
      ]),
      suffix: 'ON CONFLICT DO NOTHING RETURNING "key"',
    });
    if (stored.length) await bumpSignalsVersion(tx, projectId);
    return stored;
  });
  return inserted.length;
}
