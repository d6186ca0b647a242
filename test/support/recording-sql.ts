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
