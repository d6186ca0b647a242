/** An item of a batch that was not stored, by its index in the request, with why. */
export interface Rejection {
  index: number;
  error: string;
}

/**
 * What a batch ingest (server-side events, feedback, searches) reports: every item is accepted or rejected on its
 * own; an accepted item whose idempotency key was stored before counts among the duplicates and is not stored again.
 */
export interface BatchResult {
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
}

/**
 * The result of a whole request from the result for its valid items: `result` indexes the items it was given, which
 * were the request's items at `indexes`; `invalid` are the request's items refused before they got there. Rejections
 * come back in request order.
 */
export function batchResult(params: { result: BatchResult; indexes: number[]; invalid: Rejection[] }): BatchResult {
  const { result, indexes, invalid } = params;
  const rejected = [...invalid, ...result.rejected.map((r) => ({ index: indexes[r.index], error: r.error }))].sort(
    (a, b) => a.index - b.index,
  );
  return { accepted: result.accepted, duplicates: result.duplicates, rejected };
}
