import type { Sql } from './sql.js';
import { DAY_MS } from '../../calendar.js';

/**
 * Stored unions of aligned segments of days (`AnalyticsSegment`): a cache kept in the database, so a new process —
 * after a restart, or another replica — reads a segment a report has built before in one row instead of uniting its
 * days again. A row counts only under the version it was built from (the generations of its days); any other
 * version is ignored, and overwritten when the segment is built again.
 */

/** The stored data of a segment, if it was built from the given version of its days. */
export async function readSegment(
  sql: Sql,
  params: { projectId: string; name: string; version: string },
): Promise<Buffer | undefined> {
  const [row] = await sql.rows(
    'SELECT "data" FROM "AnalyticsSegment" WHERE "projectId" = ? AND "name" = ? AND "version" = ?',
    [params.projectId, params.name, params.version],
  );
  return row ? (row[0] as Buffer) : undefined;
}

export async function writeSegment(
  sql: Sql,
  params: { projectId: string; name: string; version: string; data: Buffer },
): Promise<void> {
  await sql.run(
    'INSERT INTO "AnalyticsSegment" ("projectId", "name", "version", "data") VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT ("projectId", "name") DO UPDATE SET "version" = excluded."version", "data" = excluded."data"',
    [params.projectId, params.name, params.version, params.data],
  );
}

/**
 * Whether a segment ending before `endDay` is worth storing: its days are past the day late events still arrive
 * for, so its version should hold. A segment with today or yesterday in it changes with every fold; storing it
 * would rewrite megabytes per report. (Only the write volume depends on the clock: a stored segment whose days
 * change after all is not read.)
 */
export function settledSegment(endDay: number, now = Date.now()): boolean {
  return endDay < Math.floor(now / DAY_MS);
}

/** Length-prefixed records: what the segment families encode their data as. */
export class RecordWriter {
  private chunks: Buffer[] = [];

  u32(n: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.chunks.push(b);
    return this;
  }

  bytes(data: Buffer | Uint8Array): this {
    this.u32(data.length);
    this.chunks.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return this;
  }

  text(s: string): this {
    return this.bytes(Buffer.from(s, 'utf8'));
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class RecordReader {
  private at = 0;

  constructor(private readonly data: Buffer) {}

  get done(): boolean {
    return this.at >= this.data.length;
  }

  u32(): number {
    const n = this.data.readUInt32LE(this.at);
    this.at += 4;
    return n;
  }

  bytes(): Buffer {
    const length = this.u32();
    const out = this.data.subarray(this.at, this.at + length);
    if (out.length !== length) throw new Error('stored segment is truncated');
    this.at += length;
    return out;
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}
