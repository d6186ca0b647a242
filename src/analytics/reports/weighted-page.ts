/**
 * One offset page of rows ordered by weight, heaviest first, ties by `tieOrder` (a total order): the rows at
 * [offset, offset + limit) and whether rows follow. Only the rows that can be on the page are sorted: those at
 * least as heavy as the row at position offset + limit − 1, found with a numeric sort of the weights, so the first
 * pages of many rows cost a pass over them instead of a sort by the tie order.
 */
export function weightedPage<Row>(
  rows: readonly Row[],
  weight: (row: Row) => number,
  tieOrder: (a: Row, b: Row) => number,
  page: { limit: number; offset: number },
): { rows: Row[]; hasMore: boolean } {
  const end = page.offset + page.limit;
  if (page.offset >= rows.length) return { rows: [], hasMore: false };
  const order = (a: Row, b: Row) => weight(b) - weight(a) || tieOrder(a, b);
  if (end >= rows.length) return { rows: [...rows].sort(order).slice(page.offset, end), hasMore: false };
  const weights = Float64Array.from(rows, weight).sort();
  // the weight of the row at position end − 1 in the full order: no row before it is lighter
  const lightest = weights[weights.length - end];
  const candidates = rows.filter((row) => weight(row) >= lightest);
  return { rows: candidates.sort(order).slice(page.offset, end), hasMore: true };
}
