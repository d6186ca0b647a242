import type { Sql } from '../../store/sql.js';

/**
 * The rows one listing covers: a project's, in a time range, as they stood at its first page — up to the highest row
 * id then, each as it was after the changes made until then.
 */
export interface ListWindow {
  projectId: string;
  from: number;
  to: number;
  /** highest row id included */
  snapshot: number;
  /** highest change id applied (feedback changes; 0 where rows never change): rows changed since are read as they were */
  changes: number;
}

/** What a listing's first page freezes. */
export type Snapshot = Pick<ListWindow, 'snapshot' | 'changes'>;

export type SignalTable = 'AnalyticsFeedback' | 'AnalyticsSearch';

/** The highest row id of a table now: what a listing's first page freezes. */
export async function latestId(sql: Sql, table: SignalTable | 'AnalyticsFeedbackChange'): Promise<number> {
  const [row] = await sql.query<{ top: unknown }>(`SELECT MAX("id") AS top FROM "${table}"`);
  return Number(row.top ?? 0);
}
