import type { Sql } from '../../src/analytics/store/sql.js';

/** A connection that notes every statement read through it (`rows`, `query`), to EXPLAIN them afterwards. */
export function recordingSql(sql: Sql): { recording: Sql; statements: [string, unknown[]][] } {
  const statements: [string, unknown[]][] = [];
  const recording = Object.create(sql) as Sql;
  recording.rows = (text, params = []) => {
    statements.push([text, params]);
    return sql.rows(text, params);
  };
  recording.query = ((text: string, params: unknown[] = []) => {
    statements.push([text, params]);
    return sql.query(text, params as never);
  }) as Sql['query'];
  return { recording, statements };
}

/** The statements whose PostgreSQL plan (EXPLAIN, as JSON text) matches `pattern`: an unwanted scan. */
export async function plansMatching(sql: Sql, statements: [string, unknown[]][], pattern: RegExp): Promise<string[]> {
  const matching: string[] = [];
  for (const [text, params] of statements) {
    const [[explained]] = await sql.rows(`EXPLAIN (FORMAT JSON) ${text}`, params as never);
    if (pattern.test(JSON.stringify(explained))) matching.push(text);
  }
  return matching;
}

/** The statements that read `table`: how often a report asked for what it holds. */
export const readsOf = (statements: [string, unknown[]][], table: string) =>
  statements.filter(([text]) => text.includes(`FROM "${table}"`));

/**
 * The reads of some pages' views among the statements, in order: a day's raw events (read-events.ts dayEvents), or
 * several days' page days (rollups/page-days.ts readPageDays), with the days and the page ids each asked for.
 */
export function viewReads(statements: [string, unknown[]][]) {
  return statements.flatMap(([text, params]) => {
    if (text.includes('FROM "AnalyticsPageDay"')) {
      const days = text.match(/"day" IN \(([^)]*)\)/)![1].split(',').length;
      const asked = (params.slice(1, 1 + days) as number[]).sort((a, b) => a - b);
      return [{ from: 'page days', days: asked, pageIds: params.slice(1 + days) }];
    }
    if (!text.includes('FROM "AnalyticsEvent"') || !text.includes('ORDER BY "ts"')) return [];
    return [{ from: 'raw', days: [Number(params[2]) / 86_400_000], pageIds: params.slice(4) }];
  });
}
