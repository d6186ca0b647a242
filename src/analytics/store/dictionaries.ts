import { inChunks, type Sql } from './sql.js';

/** ~100 bytes each */
const VISITOR_CACHE_LIMIT = 1_000_000;

/**
 * The numbering of paths and visitor hashes (AnalyticsPage, AnalyticsVisitor): small integers the events and
 * bitmaps refer to, cached per process since most views are of pages and by visitors seen before.
 */
export class Dictionaries {
  private pages = new Map<string, Map<string, number>>();
  /** projectId → visitor hash → id */
  private visitors = new Map<string, Map<string, number>>();
  private visitorCount = 0;

  /** Drops what may have been cached inside a transaction that rolled back. */
  forget(projectId: string): void {
    this.pages.delete(projectId);
    this.visitors.clear();
    this.visitorCount = 0;
  }

  /** Paths of the page ids: the cached numbering, read again once when an id is not in it (another process added it). */
  async paths(sql: Sql, projectId: string, ids: Iterable<number>): Promise<Map<number, string>> {
    const wanted = [...ids];
    const byId = async () => new Map([...(await this.projectPages(sql, projectId))].map(([path, id]) => [id, path]));
    let known = await byId();
    if (wanted.some((id) => !known.has(id))) {
      this.pages.delete(projectId);
      known = await byId();
    }
    return known;
  }

  async pageIds(tx: Sql, projectId: string, paths: string[]): Promise<Map<string, number>> {
    const known = await this.projectPages(tx, projectId);
    const missing = [...new Set(paths.filter((p) => !known.has(p)))];
    for (const chunk of inChunks(missing)) {
      const rows = await tx.insertMany<{ id: number; path: string }>({
        table: 'AnalyticsPage',
        columns: [
          ['projectId', 'text'],
          ['path', 'text'],
        ],
        rows: chunk.map((p) => [projectId, p]),
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

  async projectPages(sql: Sql, projectId: string): Promise<Map<string, number>> {
    let known = this.pages.get(projectId);
    if (!known) {
      const rows = await sql.query<{ id: number; path: string }>(
        'SELECT "id", "path" FROM "AnalyticsPage" WHERE "projectId" = ?',
        [projectId],
      );
      known = new Map(rows.map((r) => [r.path, Number(r.id)]));
      this.pages.set(projectId, known);
    }
    return known;
  }

  async visitorIds(tx: Sql, projectId: string, hashes: string[]): Promise<Map<string, number>> {
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
}
