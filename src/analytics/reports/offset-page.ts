/** An offset page of a report's ordered rows: the slice asked for, and whether rows follow it. */
export function offsetPage<Row>(rows: readonly Row[], page: { limit: number; offset: number }) {
  const end = page.offset + page.limit;
  return { rows: rows.slice(page.offset, end), hasMore: end < rows.length };
}
