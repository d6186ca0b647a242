import { z } from 'zod';
import { Invalid } from '../errors.js';
import type { TimeRange } from '../calendar.js';

/**
 * Where a walk of the queue stands: after the problem (readers, id) of the listing its first page named (range and
 * filters kept in the cursor, so a page asked for without `dateTo` still continues the same range).
 */
const Cursor = z.object({
  v: z.literal(1),
  from: z.number().int(),
  to: z.number().int(),
  kinds: z.array(z.string()).nullable(),
  statuses: z.array(z.string()).nullable(),
  readers: z.number().int().min(0),
  id: z.string(),
});
export type ProblemCursor = z.infer<typeof Cursor>;

export function encodeCursor(cursor: Omit<ProblemCursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString('base64url');
}

const invalid = (message: string) => new Invalid('Invalid query parameters', [{ message: `cursor: ${message}` }]);

/** The cursor as returned, checked against the query it is given with: 400 when it was made for another listing. */
export function decodeCursor(
  text: string,
  query: { dateFrom?: number; dateTo?: number; kinds: string[] | null; statuses: string[] | null },
): ProblemCursor & { range: TimeRange } {
  let parsed: ProblemCursor;
  try {
    parsed = Cursor.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid('not a cursor this listing returned');
  }
  if (encodeCursor(parsed) !== text) throw invalid('not a cursor this listing returned');
  const same = (a: string[] | null, b: string[] | null) => JSON.stringify(a) === JSON.stringify(b);
  if (
    (query.dateFrom !== undefined && query.dateFrom !== parsed.from) ||
    (query.dateTo !== undefined && query.dateTo !== parsed.to) ||
    !same(query.kinds, parsed.kinds) ||
    !same(query.statuses, parsed.statuses)
  )
    throw invalid('given with another range or other filters than the page it came from');
  return { ...parsed, range: { from: parsed.from, to: parsed.to } };
}
