import type { Sql } from './sql.js';
import { KIND, RoaringBitmap32, type Bitmap } from './day-sets.js';
import { Dictionaries } from './dictionaries.js';
import { foldEvents } from './fold-events.js';

/** A page view ready to store: classified, its visitor hashed, its path normalised. */
export interface NewEvent {
  ts: number;
  path: string;
  /** null for other bots: they are kept, but not as visitors */
  visitorHash: string | null;
  kind: number;
  agent: string | null;
  referrer: string | null;
  /** idempotency key; an event whose key was stored before is a duplicate */
  key: string | null;
}

export interface StoredDay {
  /** kind → part → bitmap of (page, visitor) pairs */
  sets: Map<number, Map<number, Bitmap>>;
  /** `${pageId}:${kind}` → views */
  views: Map<string, number>;
  bytes: number;
}

/**
 * The analytics tables. Raw events are the source of truth; `fold()` derives the per-day sets and view counts from
 * every event after a stored watermark, in the same transaction that advances it, so the derived tables always
 * equal a function of a prefix of the raw events — never half of a batch.
 */
export class AnalyticsStore {
  private readonly dictionaries = new Dictionaries();

  constructor(private readonly sql: Sql) {}

  /** Stores events; returns the indexes of those skipped as duplicates of an earlier idempotency key. */
  async insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> {
    try {
      return await this.sql.transaction(async (tx) => {
        const duplicates = await this.claimKeys(tx, projectId, events);
        const fresh = events.filter((_, i) => !duplicates.has(i));
        const pageIds = await this.dictionaries.pageIds(tx, projectId, fresh.map((e) => e.path));
        const visitorIds = await this.dictionaries.visitorIds(tx, projectId, fresh.map((e) => e.visitorHash).filter((h): h is string => h !== null));
        await tx.insertMany({
          table: 'AnalyticsEvent',
          columns: [['projectId', 'text'], ['ts', 'bigint'], ['pageId', 'int'], ['visitorId', 'int'], ['kind', 'int'], ['agent', 'text'], ['referrer', 'text']],
          rows: fresh.map((e) => [projectId, e.ts, pageIds.get(e.path)!, e.visitorHash === null ? null : visitorIds.get(e.visitorHash)!, e.kind, e.agent, e.referrer]),
        });
        return duplicates;
      });
    } catch (err) {
      // ids cached inside a rolled-back transaction would point nowhere
      this.dictionaries.forget(projectId);
      throw err;
    }
  }

  private async claimKeys(tx: Sql, projectId: string, events: NewEvent[]): Promise<Set<number>> {
    const duplicates = new Set<number>();
    const keyed = events.map((e, i) => [e.key, i] as const).filter((k): k is [string, number] => k[0] !== null);
    if (!keyed.length) return duplicates;
    const claimed = await tx.insertMany<{ key: string }>({
      table: 'AnalyticsEventKey',
      columns: [['projectId', 'text'], ['key', 'text']],
      rows: keyed.map(([key]) => [projectId, key]),
      suffix: 'ON CONFLICT DO NOTHING RETURNING "key"',
    });
    const fresh = new Set(claimed.map((r) => r.key));
    for (const [key, i] of keyed) {
      if (fresh.has(key)) fresh.delete(key);
      else duplicates.add(i);
    }
    return duplicates;
  }

  /** Folds raw events after the watermark into the day sets and view counts; returns how many it read. */
  fold(): Promise<number> {
    return foldEvents(this.sql);
  }

  /** Generation of each day that has data in [fromDay, toDay). */
  async dayGenerations(projectId: string, fromDay: number, toDay: number): Promise<Map<number, number>> {
    const rows = await this.sql.query<{ day: number; generation: number }>(
      'SELECT "day", "generation" FROM "AnalyticsDay" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?',
      [projectId, fromDay, toDay],
    );
    return new Map(rows.map((r) => [Number(r.day), Number(r.generation)]));
  }

  async loadDay(projectId: string, day: number): Promise<StoredDay> {
    const sets = new Map<number, Map<number, Bitmap>>([
      [KIND.human, new Map()],
      [KIND.ai, new Map()],
    ]);
    let bytes = 0;
    const rows = await this.sql.query<{ kind: number; part: number; pairs: Buffer }>(
      'SELECT "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ?',
      [projectId, day],
    );
    for (const r of rows) {
      bytes += r.pairs.length;
      sets.get(Number(r.kind))?.set(Number(r.part), RoaringBitmap32.deserialize(r.pairs, true));
    }
    const viewRows = await this.sql.query<{ pageId: number; kind: number; views: number }>(
      'SELECT "pageId", "kind", "views" FROM "AnalyticsDayViews" WHERE "projectId" = ? AND "day" = ?',
      [projectId, day],
    );
    const views = new Map(viewRows.map((r) => [`${r.pageId}:${r.kind}`, Number(r.views)]));
    return { sets, views, bytes: bytes + viewRows.length * 64 };
  }

  /** Counted (human and AI) raw events in [fromMs, toMs), for the partial days at the edges of a range. */
  async rawEvents(projectId: string, fromMs: number, toMs: number) {
    const rows = await this.sql.query<{ pageId: number; visitorId: number; kind: number }>(
      'SELECT "pageId", "visitorId", "kind" FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0',
      [projectId, fromMs, toMs],
    );
    return rows.map((r) => ({ pageId: Number(r.pageId), visitorId: Number(r.visitorId), kind: Number(r.kind) }));
  }

  /** AI page views in [fromMs, toMs) by agent name (null when unnamed): distinct visitors and views. */
  async agentCounts(projectId: string, fromMs: number, toMs: number): Promise<{ agent: string | null; visitors: number; views: number }[]> {
    const rows = await this.sql.query<{ agent: string | null; visitors: number | string; views: number | string }>(
      `SELECT "agent" AS agent, COUNT(DISTINCT "visitorId") AS visitors, COUNT(*) AS views
         FROM "AnalyticsEvent"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.ai}
        GROUP BY "agent"`,
      [projectId, fromMs, toMs],
    );
    return rows.map((r) => ({ agent: r.agent, visitors: Number(r.visitors), views: Number(r.views) }));
  }

  /** Paths of the given page ids. */
  async paths(projectId: string, ids: Iterable<number>): Promise<Map<number, string>> {
    const wanted = [...ids];
    const byId = (pages: Map<string, number>) => new Map([...pages].map(([path, id]) => [id, path]));
    let known = byId(await this.dictionaries.projectPages(this.sql, projectId));
    if (wanted.some((id) => !known.has(id))) {
      this.dictionaries.forgetPages(projectId);
      known = byId(await this.dictionaries.projectPages(this.sql, projectId));
    }
    return known;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
