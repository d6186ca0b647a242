/**
 * The visitors export's peer: ClickHouse's engine (chDB, in this process) counting the same rows exactly. The bench's
 * stored page views are copied into a MergeTree table ordered by time (ClickHouse's natural layout for a time-range
 * query), then the 30-day export — per page the distinct human, AI and all visitors, the first 50 pages by visitors
 * then path, and the site-wide distinct counts — is asked with `uniqExact`, the first time on a newly opened session
 * (what a restarted server pays) and warm. The answer is returned in the export's JSON shape so the caller can check
 * both say the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { DatabaseTarget } from '../src/db/database-url.js';
import type { TimeRange } from '../src/calendar.js';

interface ChdbSession {
  queryAsync(q: string, o: { format: string }): Promise<{ bytes(): Uint8Array }>;
  close(): void;
}
interface Chdb {
  Session: new (path: string) => ChdbSession;
}

const LIMIT = 50;

/** The table function that reads one of the primary database's tables from ClickHouse. */
function tableFunction(target: DatabaseTarget, table: string): string {
  const quote = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (target.provider === 'sqlite') return `sqlite(${quote(path.resolve(target.filePath))}, ${quote(table)})`;
  const url = new URL(target.url);
  const args = [
    `${url.hostname}:${url.port || '5432'}`,
    url.pathname.slice(1),
    table,
    decodeURIComponent(url.username) || 'postgres',
    decodeURIComponent(url.password),
  ];
  return `postgresql(${args.map(quote).join(', ')})`;
}

async function rows<T>(session: ChdbSession, sql: string): Promise<T[]> {
  const text = Buffer.from((await session.queryAsync(sql, { format: 'JSONEachRow' })).bytes()).toString('utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

export interface ChdbExportTiming {
  loadSeconds: number;
  firstMs: number;
  p50: number;
  answer: unknown;
}

export async function timeChdbExport(params: {
  target: DatabaseTarget;
  projectId: string;
  range: TimeRange;
  reps: number;
  warmUps: number;
}): Promise<ChdbExportTiming> {
  const { target, projectId, range, reps, warmUps } = params;
  const chdb = createRequire(import.meta.url)('chdb') as Chdb;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-bench-chdb-'));
  try {
    const loadStart = performance.now();
    let session = new chdb.Session(dir);
    const project = `'${projectId.replaceAll("'", "\\'")}'`;
    await session.queryAsync(
      `CREATE TABLE pages (id Int64, path String) ENGINE = MergeTree ORDER BY id AS
       SELECT id, path FROM ${tableFunction(target, 'AnalyticsPage')} WHERE projectId = ${project}`,
      { format: 'CSV' },
    );
    await session.queryAsync(
      `CREATE TABLE views (ts Int64, pageId Int64, visitorId Nullable(Int64), kind UInt8) ENGINE = MergeTree ORDER BY ts`,
      { format: 'CSV' },
    );
    await session.queryAsync(
      `INSERT INTO views SELECT ts, pageId, visitorId, kind FROM ${tableFunction(target, 'AnalyticsEvent')}
       WHERE projectId = ${project}`,
      { format: 'CSV' },
    );
    await session.queryAsync('OPTIMIZE TABLE views FINAL', { format: 'CSV' });
    const loadSeconds = (performance.now() - loadStart) / 1000;
    session.close();

    const where = `ts >= ${range.from} AND ts < ${range.to} AND kind > 0`;
    const counts =
      'uniqExactIf(visitorId, kind = 1) AS human, uniqExactIf(visitorId, kind = 2) AS ai, uniqExact(visitorId) AS total';
    type Counts = { human: string | number; ai: string | number; total: string | number };
    const num = (c: Counts) => ({ human: Number(c.human), ai: Number(c.ai), total: Number(c.total) });
    const ask = async () => {
      const t = performance.now();
      const top = await rows<Counts & { path: string }>(
        session,
        `SELECT p.path AS path, a.human AS human, a.ai AS ai, a.total AS total
         FROM (SELECT pageId, ${counts} FROM views WHERE ${where} GROUP BY pageId) AS a
         INNER JOIN pages AS p ON p.id = a.pageId ORDER BY total DESC, path ASC LIMIT ${LIMIT + 1}`,
      );
      const [totals] = await rows<Counts>(session, `SELECT ${counts} FROM views WHERE ${where}`);
      const answer = {
        totals: num(totals),
        visitors: top.slice(0, LIMIT).map((r) => ({ path: r.path, ...num(r) })),
        hasMore: top.length > LIMIT,
      };
      return [performance.now() - t, answer] as const;
    };
    // a newly opened session: its first query reads the parts as a restarted server would
    session = new chdb.Session(dir);
    const [firstMs, answer] = await ask();
    for (let i = 0; i < warmUps; i++) await ask();
    const warm: number[] = [];
    for (let i = 0; i < reps; i++) warm.push((await ask())[0]);
    session.close();
    warm.sort((a, b) => a - b);
    return { loadSeconds, firstMs, p50: warm[Math.floor((warm.length - 1) / 2)], answer };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
