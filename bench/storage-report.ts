/**
 * What bench/storage.ts and bench/analytics.ts report about storage (issue 20 §5): the bytes of every analytics table
 * and index on SQLite (the dbstat virtual table: pages in use) or PostgreSQL (pg_table_size, pg_relation_size of
 * each index), grouped as raw events, idempotency keys, dictionaries, day sets, day views, gap counts (the day sets' and the
 * agent rollup's), stored segments (unions of days a report stored) and rollups (every table
 * of `ROLLUPS`, read at run time, so rollups added later are counted), per page view.
 */
import type { DatabaseTarget } from '../src/db/database-url.js';
import { openSql, type Sql } from '../src/analytics/store/sql.js';
import { ROLLUPS } from '../src/analytics/store/rollups/all-rollups.js';

export interface StorageObject {
  group: string;
  table: string;
  /** the index's name, or null for the table itself */
  index: string | null;
  bytes: number;
}

const GROUPS: Record<string, string> = {
  AnalyticsEvent: 'raw events',
  AnalyticsEventKey: 'idempotency keys',
  AnalyticsPage: 'dictionaries',
  AnalyticsVisitor: 'dictionaries',
  AnalyticsDaySet: 'day sets',
  AnalyticsDay: 'day sets',
  AnalyticsDayViews: 'day views',
  // kept by the agent rollup, shown apart from its cells
};

function groupOf(table: string): string {
  if (GROUPS[table]) return GROUPS[table];
  const rollup = ROLLUPS.find((r) => r.tables.includes(table));
  return rollup ? `rollup ${rollup.name}` : 'other analytics';
}

const ORDER = [
  'raw events',
  'idempotency keys',
  'dictionaries',
  'day sets',
  'day views',
  'gap counts',
  'gap counts (agent rollup)',
  'stored segments',
];
const rank = (group: string) =>
  ORDER.includes(group) ? ORDER.indexOf(group) : group.startsWith('rollup ') ? ORDER.length : ORDER.length + 1;

/** Every Analytics* table and index with its size in bytes. */
export async function storageObjects(sql: Sql): Promise<StorageObject[]> {
  const out: StorageObject[] = [];
  if (sql.provider === 'sqlite') {
    const rows = await sql.query<{ name: string; tbl: string; type: string; bytes: number }>(
      `SELECT m."name" AS name, m."tbl_name" AS tbl, m."type" AS type, SUM(s."pgsize") AS bytes
         FROM "sqlite_master" m JOIN dbstat s ON s."name" = m."name"
        WHERE m."tbl_name" LIKE 'Analytics%' GROUP BY m."name", m."tbl_name", m."type"`,
    );
    for (const r of rows)
      out.push({ group: groupOf(r.tbl), table: r.tbl, index: r.type === 'index' ? r.name : null, bytes: r.bytes });
  } else {
    const tables = await sql.query<{ tbl: string; bytes: string }>(
      `SELECT c.relname AS tbl, pg_table_size(c.oid) AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname = current_schema() AND c.relname LIKE 'Analytics%'`,
    );
    for (const t of tables) out.push({ group: groupOf(t.tbl), table: t.tbl, index: null, bytes: Number(t.bytes) });
    const indexes = await sql.query<{ tbl: string; idx: string; bytes: string }>(
      `SELECT t.relname AS tbl, i.relname AS idx, pg_relation_size(i.oid) AS bytes FROM pg_index x
         JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() AND t.relname LIKE 'Analytics%'`,
    );
    for (const i of indexes) out.push({ group: groupOf(i.tbl), table: i.tbl, index: i.idx, bytes: Number(i.bytes) });
  }
  return out.sort((a, b) => rank(a.group) - rank(b.group) || a.group.localeCompare(b.group) || b.bytes - a.bytes);
}

/** Size of the whole database file (SQLite) or database (PostgreSQL), in bytes. */
export async function databaseBytes(sql: Sql): Promise<number> {
  if (sql.provider === 'sqlite') {
    const [p] = await sql.query<{ n: number }>(
      'SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()',
    );
    return p.n;
  }
  const [d] = await sql.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
  return Number(d.n);
}

const mib = (b: number) => (b / 1_048_576).toFixed(1);
const perView = (b: number, views: number) => (b / views).toFixed(b / views < 10 ? 2 : 1);

/** Markdown rows: per group (table bytes and index bytes apart), then every object, for one database and size. */
export async function storageTable(params: {
  target: DatabaseTarget;
  provider: string;
  views: number;
}): Promise<string> {
  const { views, provider } = params;
  const sql = openSql(params.target);
  try {
    if (provider === 'postgresql') await sql.run('VACUUM ANALYZE');
    const objects = await storageObjects(sql);
    const total = await databaseBytes(sql);
    const groups = new Map<string, { table: number; index: number }>();
    for (const o of objects) {
      const g = groups.get(o.group) ?? { table: 0, index: 0 };
      if (o.index === null) g.table += o.bytes;
      else g.index += o.bytes;
      groups.set(o.group, g);
    }
    const size = views.toLocaleString('en');
    const lines: string[] = [];
    for (const [group, g] of groups) {
      lines.push(
        `| ${provider} | ${size} | **${group}** | | ${mib(g.table)} | ${mib(g.index)} | ${perView(g.table, views)} | ${perView(g.index, views)} | ${perView(g.table + g.index, views)} |`,
      );
      // the reader-signal and miss tables are not what issue 20 weighs: their group line is enough
      if (group === 'other analytics') continue;
      for (const o of objects.filter((x) => x.group === group)) {
        const [t, i] = o.index === null ? [o.bytes, 0] : [0, o.bytes];
        lines.push(
          `| ${provider} | ${size} | ${group} | ${o.table}${o.index ? ` · ${o.index}` : ''} | ${mib(t)} | ${mib(i)} | ${perView(t, views)} | ${perView(i, views)} | ${perView(o.bytes, views)} |`,
        );
      }
    }
    lines.push(
      `| ${provider} | ${size} | **whole database** | | | | | | ${perView(total, views)} (${mib(total)} MiB) |`,
    );
    return lines.join('\n');
  } finally {
    await sql.close();
  }
}

export const STORAGE_HEADER =
  '| database | page views | group | table · index | table MiB | index MiB | table B/view | index B/view | B/view |\n|---|---|---|---|---|---|---|---|---|';
