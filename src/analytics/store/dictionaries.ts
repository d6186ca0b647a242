import { inChunks, type Sql } from './sql.js';
import { VisitorIdTable } from './visitor-id-table.js';

/** visitors cached across projects (at most 48 bytes each) */
const VISITOR_CACHE_LIMIT = 1_000_000;

/**
 * The numbering of paths and visitor hashes (AnalyticsPage, AnalyticsVisitor): small integers the events and
 * bitmaps refer to, cached per process since most views are of pages and by visitors seen before.
 */
export class Dictionaries {
  private pages = new Map<string, Map<string, number>>();
  /** projectId → visitor hash → id */
  private visitors = new Map<string, VisitorIdTable>();

  /** Drops what may have been cached inside a transaction that rolled back. */
  forget(projectId: string): void {
    this.pages.delete(projectId);
    this.visitors.clear();
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

  /** The ids of the visitors' hashes, in their order (null for none), numbering those not seen before. */
  async visitorIds(tx: Sql, projectId: string, hashes: (string | null)[]): Promise<(number | null)[]> {
    let cached = this.visitors.get(projectId);
    if (!cached) this.visitors.set(projectId, (cached = new VisitorIdTable()));
    const ids: (number | null)[] = new Array(hashes.length);
    const missing = new Map<string, number[]>();
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i];
      const id = hash === null ? null : cached.get(hash);
      if (id !== undefined) ids[i] = id;
      else {
        const at = missing.get(hash!);
        if (at) at.push(i);
        else missing.set(hash!, [i]);
      }
    }
    if (!missing.size) return ids;
    const found = await tx.dictionaryIds({
      table: 'AnalyticsVisitor',
      column: 'hash',
      projectId,
      keys: [...missing.keys()],
    });
    let total = 0;
    for (const table of this.visitors.values()) total += table.size;
    if (total + found.size > VISITOR_CACHE_LIMIT) {
      this.visitors.clear();
      this.visitors.set(projectId, (cached = new VisitorIdTable()));
    }
    for (const [hash, id] of found) {
      for (const i of missing.get(hash)!) ids[i] = id;
      cached.set(hash, id);
    }
    return ids;
  }
}
