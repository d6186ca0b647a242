import type { Dictionaries } from '../store/dictionaries.js';
import type { Sql } from '../store/sql.js';
import { compareCodePoints } from './compare-code-points.js';
import { offsetPage } from './offset-page.js';
import type { Counts, RangeCounts } from './visitors.js';

/** One page of an export: the range's totals and its rows for the requested slice. */
export interface Page {
  totals: Counts;
  rows: (Counts & { path: string })[];
  hasMore: boolean;
}

/** Orders by total descending, then path ascending (code-point order: the same on every database and locale). */
export async function exportPage(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  projectId: string;
  counts: RangeCounts;
  page: { limit: number; offset: number };
}): Promise<Page> {
  const { sql, dictionaries, projectId, counts } = params;
  const paths = await dictionaries.paths(sql, projectId, counts.pages.keys());
  const rows = [...counts.pages].map(([id, c]) => ({ path: paths.get(id) ?? `#${id}`, ...c }));
  rows.sort((a, b) => b.total - a.total || compareCodePoints(a.path, b.path));
  return { totals: counts.totals, ...offsetPage(rows, params.page) };
}
