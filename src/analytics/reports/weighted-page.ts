/**
 * One offset page of rows ordered by weight, heaviest first, ties by `tieOrder` (a total order): the rows at
 * [offset, offset + limit) and whether rows follow. Only the rows that can be on the page are sorted: those at
 * least as heavy as the row at position offset + limit − 1, whose weight is found by selection (no sort), so the
 * first pages of many rows cost a few passes over them instead of a sort.
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
  // each weight read once, in a loop: Float64Array.from with a mapping function goes through the iterator protocol,
  // several times slower (most of a 30-day ai/misses call at 10M views, 29,000 rows)
  const weights = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) weights[i] = weight(rows[i]);
  // the weight of the row at position end − 1 in the full order: no row before it is lighter
  const lightest = kthLargest(weights.slice(), end);
  const candidates: Row[] = [];
  for (let i = 0; i < rows.length; i++) if (weights[i] >= lightest) candidates.push(rows[i]);
  return { rows: candidates.sort(order).slice(page.offset, end), hasMore: true };
}

/**
 * The k-th largest of the values (1 ≤ k ≤ length), by quickselect: partitions the array in place around a median of
 * three until the position of the k-th largest is settled.
 */
export function kthLargest(values: Float64Array, k: number): number {
  const target = values.length - k; // its index in ascending order
  let [low, high] = [0, values.length - 1];
  while (low < high) {
    const middle = (low + high) >>> 1;
    const pivot = medianOfThree(values[low], values[middle], values[high]);
    let [i, j] = [low, high];
    // Hoare partition: values[low..j] ≤ pivot ≤ values[i..high] once i passes j
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else return values[target];
  }
  return values[target];
}

function medianOfThree(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}
