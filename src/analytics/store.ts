import type { Param, Sql } from './sql.js';
import { addPair, KIND, RoaringBitmap32, type Bitmap } from './day-sets.js';
import { DAY_MS } from './visitor-hash.js';

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

const FOLD_CHUNK = 200_000;
const IN_CHUNK = 500;
/** ~100 bytes each */
const VISITOR_CACHE_LIMIT = 1_000_000;

/**
 * The analytics tables. Raw events are the source of truth; `fold()` derives the per-day sets and view counts from
 * every event after a stored watermark, in the same transaction that advances it, so the derived tables always
 * equal a function of a prefix of the raw events — never half of a batch.
 */
export class AnalyticsStore {
  private pages = new Map<string, Map<string, number>>();
  /** projectId → visitor hash → id: most views come from visitors seen before */
  private visitors = new Map<string, Map<string, number>>();
  private visitorCount = 0;

  constructor(readonly sql: Sql) {}

  /** Stores events; returns the indexes of those skipped as duplicates of an earlier idempotency key. */
  async insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> {
    try {
      return await this.sql.transaction(async (tx) => {
        const duplicates = await this.claimKeys(tx, projectId, events);
        const fresh = events.filter((_, i) => !duplicates.has(i));
        const pageIds = await this.pageIds(tx, projectId, fresh.map((e) => e.path));
        const visitorIds = await this.visitorIds(tx, projectId, fresh.map((e) => e.visitorHash).filter((h): h is string => h !== null));
        await tx.insertMany({
          table: 'AnalyticsEvent',
          columns: [['projectId', 'text'], ['ts', 'bigint'], ['pageId', 'int'], ['visitorId', 'int'], ['kind', 'int'], ['agent', 'text'], ['referrer', 'text']],
          rows: fresh.map((e) => [projectId, e.ts, pageIds.get(e.path)!, e.visitorHash === null ? null : visitorIds.get(e.visitorHash)!, e.kind, e.agent, e.referrer]),
        });
        return duplicates;
      });
    } catch (err) {
      // ids cached inside a rolled-back transaction would point nowhere
      this.pages.delete(projectId);
      this.visitors.clear();
      this.visitorCount = 0;
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

  private async pageIds(tx: Sql, projectId: string, paths: string[]): Promise<Map<string, number>> {
    const known = await this.projectPages(tx, projectId);
    const missing = [...new Set(paths.filter((p) => !known.has(p)))];
    for (let i = 0; i < missing.length; i += IN_CHUNK) {
      const rows = await tx.insertMany<{ id: number; path: string }>({
        table: 'AnalyticsPage',
        columns: [['projectId', 'text'], ['path', 'text']],
        rows: missing.slice(i, i + IN_CHUNK).map((p) => [projectId, p]),
        suffix: 'ON CONFLICT DO NOTHING RETURNING "id", "path"',
      });
      for (const r of rows) known.set(r.path, Number(r.id));
    }
    if (missing.some((p) => !known.has(p))) {
      this.pages.delete(projectId); // another process added some: reload
      return this.projectPages(tx, projectId);
    }
    return known;
  }

  private async projectPages(sql: Sql, projectId: string): Promise<Map<string, number>> {
    let known = this.pages.get(projectId);
    if (!known) {
      const rows = await sql.query<{ id: number; path: string }>('SELECT "id", "path" FROM "AnalyticsPage" WHERE "projectId" = ?', [projectId]);
      known = new Map(rows.map((r) => [r.path, Number(r.id)]));
      this.pages.set(projectId, known);
    }
    return known;
  }

  private async visitorIds(tx: Sql, projectId: string, hashes: string[]): Promise<Map<string, number>> {
    let cached = this.visitors.get(projectId);
    if (!cached) this.visitors.set(projectId, (cached = new Map()));
    const ids = new Map<string, number>();
    const missing: string[] = [];
    for (const hash of hashes) {
      const id = cached.get(hash);
      if (id !== undefined) ids.set(hash, id);
      else if (!ids.has(hash)) {
        ids.set(hash, -1);
        missing.push(hash);
      }
    }
    const found = await tx.dictionaryIds({ table: 'AnalyticsVisitor', column: 'hash', projectId, keys: missing });
    if ((this.visitorCount += found.size) > VISITOR_CACHE_LIMIT) {
      this.visitors.clear();
      this.visitors.set(projectId, (cached = new Map()));
      this.visitorCount = found.size;
    }
    for (const [hash, id] of found) {
      ids.set(hash, id);
      cached.set(hash, id);
    }
    return ids;
  }

  /** Folds raw events after the watermark into the day sets and view counts; returns how many it read. */
  async fold(): Promise<number> {
    // the common case, nothing new, costs one read and no write lock
    const [pending] = await this.sql.query<{ mark: unknown; top: unknown }>(
      'SELECT (SELECT "value" FROM "AnalyticsState" WHERE "name" = ?) AS mark, (SELECT MAX("id") FROM "AnalyticsEvent") AS top',
      ['folded'],
    );
    if (pending.top === null || Number(pending.top) <= Number(pending.mark ?? 0)) return 0;
    let total = 0;
    for (;;) {
      const n = await this.sql.transaction((tx) => this.foldChunk(tx));
      total += n;
      if (n < FOLD_CHUNK) return total;
    }
  }

  private async foldChunk(tx: Sql): Promise<number> {
    const [state] = await tx.query<{ value: unknown }>('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?', ['folded']);
    const mark = Number(state?.value ?? 0);
    const rows = (await tx.rows(
      'SELECT "id", "projectId", "ts", "pageId", "visitorId", "kind" FROM "AnalyticsEvent" WHERE "id" > ? ORDER BY "id" LIMIT ?',
      [mark, FOLD_CHUNK],
    )) as [number, string, number | string, number, number | null, number][];
    if (!rows.length) return 0;
    const pairs = new Map<string, Map<number, number[]>>(); // project\0day\0kind → part → keys
    const views = new Map<string, number>(); // project\0day\0page\0kind → views
    const days = new Set<string>();
    for (const [, projectId, ts, pageId, visitorId, kind] of rows) {
      if (kind === KIND.bot || visitorId === null) continue;
      const day = Math.floor(Number(ts) / DAY_MS);
      const dayKey = `${projectId}\0${day}`;
      days.add(dayKey);
      const setKey = `${dayKey}\0${kind}`;
      let parts = pairs.get(setKey);
      if (!parts) pairs.set(setKey, (parts = new Map()));
      addPair(parts, pageId, visitorId);
      const viewKey = `${dayKey}\0${pageId}\0${kind}`;
      views.set(viewKey, (views.get(viewKey) ?? 0) + 1);
    }
    for (const [setKey, parts] of pairs) {
      const [projectId, day, kind] = setKey.split('\0');
      for (const [part, keys] of parts) {
        const params: Param[] = [projectId, Number(day), Number(kind), part];
        const [existing] = await tx.query<{ pairs: Buffer }>(
          'SELECT "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ? AND "kind" = ? AND "part" = ?',
          params,
        );
        const bitmap = existing ? RoaringBitmap32.deserialize(existing.pairs, true) : new RoaringBitmap32();
        bitmap.addMany(keys);
        const blob = Buffer.from(bitmap.serialize(true) as Uint8Array);
        bitmap.dispose(); // native memory: do not wait for the garbage collector
        await tx.run(
          'INSERT INTO "AnalyticsDaySet" ("projectId", "day", "kind", "part", "pairs") VALUES (?, ?, ?, ?, ?) ' +
            'ON CONFLICT ("projectId", "day", "kind", "part") DO UPDATE SET "pairs" = excluded."pairs"',
          [...params, blob],
        );
      }
    }
    await tx.insertMany({
      table: 'AnalyticsDayViews',
      columns: [['projectId', 'text'], ['day', 'int'], ['pageId', 'int'], ['kind', 'int'], ['views', 'int']],
      rows: [...views].map(([key, n]) => {
        const [projectId, day, page, kind] = key.split('\0');
        return [projectId, Number(day), Number(page), Number(kind), n];
      }),
      suffix: 'ON CONFLICT ("projectId", "day", "pageId", "kind") DO UPDATE SET "views" = "AnalyticsDayViews"."views" + excluded."views"',
    });
    await tx.insertMany({
      table: 'AnalyticsDay',
      columns: [['projectId', 'text'], ['day', 'int'], ['generation', 'int']],
      rows: [...days].map((key) => {
        const [projectId, day] = key.split('\0');
        return [projectId, Number(day), 1];
      }),
      suffix: 'ON CONFLICT ("projectId", "day") DO UPDATE SET "generation" = "AnalyticsDay"."generation" + 1',
    });
    await tx.run(
      'INSERT INTO "AnalyticsState" ("name", "value") VALUES (?, ?) ON CONFLICT ("name") DO UPDATE SET "value" = excluded."value"',
      ['folded', rows[rows.length - 1][0]],
    );
    return rows.length;
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

  /** Paths of the given page ids. */
  async paths(projectId: string, ids: Iterable<number>): Promise<Map<number, string>> {
    const wanted = [...ids];
    const byId = (pages: Map<string, number>) => new Map([...pages].map(([path, id]) => [id, path]));
    let known = byId(await this.projectPages(this.sql, projectId));
    if (wanted.some((id) => !known.has(id))) {
      this.pages.delete(projectId);
      known = byId(await this.projectPages(this.sql, projectId));
    }
    return known;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
