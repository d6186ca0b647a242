import type { Param, Sql } from '../../store/sql.js';

/** the columns a stored feedback row may change in: what a change keeps the earlier values of */
const CHANGING = ['status', 'source', 'helpful', 'comment'] as const;
const COLUMNS = CHANGING.map((c) => `"${c}"`).join(', ');

/**
 * Keeps what a feedback row of the project holds now, before a change to it, in the same transaction: a listing walk
 * that began before the change goes on reading the row as it was.
 */
export async function recordFeedbackChange(tx: Sql, params: { projectId: string; id: number }): Promise<void> {
  await tx.run(
    `INSERT INTO "AnalyticsFeedbackChange" ("feedbackId", ${COLUMNS}) ` +
      `SELECT "id", ${COLUMNS} FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "id" = ?`,
    [params.projectId, params.id],
  );
}

/**
 * The feedback table as it stood when the highest change id was `changes`, as a FROM source with its parameters: a
 * row changed since holds the values kept at its first change after that, any other row its own. (Rows stored since
 * are the window's `snapshot` to leave out.) Only the changes since are read, by their primary key.
 */
export function feedbackAsOf(changes: number): { source: string; params: Param[] } {
  const then = CHANGING.map((c) => `CASE WHEN c."id" IS NULL THEN f."${c}" ELSE c."${c}" END AS "${c}"`).join(', ');
  return {
    source:
      `(SELECT f."id", f."projectId", f."ts", f."path", f."contact", f."code", f."filename", f."lang", ${then} ` +
      'FROM "AnalyticsFeedback" f ' +
      'LEFT JOIN (SELECT "feedbackId", MIN("id") AS "first" FROM "AnalyticsFeedbackChange" WHERE "id" > ? GROUP BY "feedbackId") w ' +
      'ON w."feedbackId" = f."id" LEFT JOIN "AnalyticsFeedbackChange" c ON c."id" = w."first") AS "asOf"',
    params: [changes],
  };
}
