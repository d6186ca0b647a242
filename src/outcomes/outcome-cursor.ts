import { z } from 'zod';
import { Invalid } from '../errors.js';

/** Where a walk of the outcomes stands: after the merge (time, job id) the previous page ended on, in the same range. */
const Cursor = z.object({
  v: z.literal(1),
  from: z.number().int(),
  to: z.number().int(),
  mergedAt: z.number().int(),
  jobId: z.string(),
});
export type OutcomeCursor = z.infer<typeof Cursor>;

export function encodeOutcomeCursor(cursor: Omit<OutcomeCursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString('base64url');
}

const invalid = (message: string) => new Invalid('Invalid query parameters', [{ message: `cursor: ${message}` }]);

/** The cursor as returned: 400 when it is not one, or was made for another range than the one given with it. */
export function decodeOutcomeCursor(text: string, query: { dateFrom?: number; dateTo?: number }): OutcomeCursor {
  let parsed: OutcomeCursor;
  try {
    parsed = Cursor.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid('not a cursor this listing returned');
  }
  if (encodeOutcomeCursor(parsed) !== text) throw invalid('not a cursor this listing returned');
  if (
    (query.dateFrom !== undefined && query.dateFrom !== parsed.from) ||
    (query.dateTo !== undefined && query.dateTo !== parsed.to)
  )
    throw invalid('given with another range than the page it came from');
  return parsed;
}
