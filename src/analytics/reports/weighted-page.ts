/**
 * One offset page of rows ordered by weight, heaviest first, ties by `tieOrder` (a total order): the rows at
 * [offset, offset + limit) and whether rows follow. Only the rows that can be on the page are sorted (see
 * pageCandidates), so the first pages of many rows cost a few passes over them instead of a sort.
 */
export function weightedPage<Row>(
  rows: readonly Row[],
  weight: (row: Row) => number,
  tieOrder: (a: Row, b: Row) => number,
  page: { limit: number; offset: number },
): { rows: Row[]; hasMore: boolean } {
  // each weight read once, in a loop: Float64Array.from with a mapping function goes through the iterator protocol,
  // several times slower (most of a 30-day ai/misses call at 10M views, 29,000 rows)
  const weights = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) weights[i] = weight(rows[i]);
  const { positions, hasMore } = pageCandidates(weights, page);
  const order = orderedPage(positions, weights, (a, b) => tieOrder(rows[a], rows[b]), page);
  return { rows: order.map((i) => rows[i]), hasMore };
}

/**
 * One page of rows by weight whose tie order reads their pages' paths (`pageOf`: a row's page id): the paths of the
 * rows that can be on the page alone are looked up (`paths`), then those rows ordered. Returns the page's rows as
 * positions in `weights`, whether rows follow, and the paths looked up (`#id` for a page without one).
 */
export async function pageByPath(params: {
  weights: Float64Array;
  pageOf: (row: number) => number;
  paths: (pages: Set<number>) => Promise<Map<number, string>>;
  tieOrder: (a: number, b: number, pathOf: (page: number) => string) => number;
  page: { limit: number; offset: number };
}): Promise<{ rows: number[]; hasMore: boolean; pathOf: (page: number) => string }> {
  const { weights, pageOf, page } = params;
  const { positions, hasMore } = pageCandidates(weights, page);
  const paths = await params.paths(new Set(positions.map(pageOf)));
  const pathOf = (id: number) => paths.get(id) ?? `#${id}`;
  return { rows: orderedPage(positions, weights, (a, b) => params.tieOrder(a, b, pathOf), page), hasMore, pathOf };
}

/**
 * The positions (indexes into `weights`) of the rows that can be on the page [offset, offset + limit) of the order by
 * weight, heaviest first: those at least as heavy as the row at position offset + limit − 1, whose weight is found by
 * selection (no sort); every row when the page reaches the last.
 */
function pageCandidates(
  weights: Float64Array,
  page: { limit: number; offset: number },
): { positions: number[]; hasMore: boolean } {
  const end = page.offset + page.limit;
  if (page.offset >= weights.length) return { positions: [], hasMore: false };
  const positions: number[] = [];
  if (end >= weights.length) {
    for (let i = 0; i < weights.length; i++) positions.push(i);
    return { positions, hasMore: false };
  }
  // the weight of the row at position end − 1 in the full order: no row before it is lighter
  const lightest = kthLargest(weights.slice(), end);
  for (let i = 0; i < weights.length; i++) if (weights[i] >= lightest) positions.push(i);
  return { positions, hasMore: true };
}

/** The page's positions from pageCandidates' in order: heaviest first, ties by `tieOrder` of the positions. */
function orderedPage(
  positions: number[],
  weights: Float64Array,
  tieOrder: (a: number, b: number) => number,
  page: { limit: number; offset: number },
): number[] {
  return positions
    .sort((a, b) => weights[b] - weights[a] || tieOrder(a, b))
    .slice(page.offset, page.offset + page.limit);
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
