/** Pages spanned at most by the array (a project's page ids are close together; pages beyond go in a map). */
export const DENSE_SPAN = 1 << 22;

/** Counts per page a report reads: a map, or PageCounts. */
export interface PageFigures {
  get(page: number): number | undefined;
  set(page: number, n: number): unknown;
  forEach(visit: (n: number, page: number) => void): void;
}

/** Counts per page as read: looked up, visited in ascending page order, added into a sum. */
export interface PageViews {
  get(page: number): number | undefined;
  forEach(visit: (n: number, page: number) => void): void;
  addTo(sum: PageCounts): void;
  /** memory held, roughly (the cache's measure) */
  readonly byteLength: number;
}

/**
 * Counts of a set of pages as stored, ascending by page, packed in two arrays: one stored day's views of a cell
 * (often a few hundred pages), held as read rather than spread over arrays as wide as the site's page ids.
 */
export class PackedCounts implements PageViews {
  constructor(
    private readonly pages: Uint32Array,
    private readonly counts: Uint32Array,
  ) {}

  get(page: number): number | undefined {
    let [low, high] = [0, this.pages.length - 1];
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (this.pages[mid] < page) low = mid + 1;
      else if (this.pages[mid] > page) high = mid - 1;
      else return this.counts[mid];
    }
    return undefined;
  }

  forEach(visit: (n: number, page: number) => void): void {
    for (let i = 0; i < this.pages.length; i++) visit(this.counts[i], this.pages[i]);
  }

  addTo(sum: PageCounts): void {
    if (!this.pages.length) return;
    sum.reserve(this.pages[0], this.pages[this.pages.length - 1]);
    for (let i = 0; i < this.pages.length; i++) sum.add(this.counts[i], this.pages[i]);
  }

  get byteLength(): number {
    return this.pages.byteLength + this.counts.byteLength;
  }
}

/**
 * Counts per page (views, distinct visitors) being added up. Page ids are dictionary ids, close together, so counts
 * are kept in an array indexed by page from the lowest one seen (pages more than 4M apart from it in a map): a map
 * lookup and update per entry costs several times more, and two sums add as two arrays do. Read by page, or page by
 * page in ascending order.
 */
export class PageCounts implements PageFigures, PageViews {
  /** the page at index 0 of the arrays */
  private base = 0;
  private counts = new Float64Array(0);
  private seen = new Uint8Array(0);
  /** highest index with an entry, -1 when none */
  private top = -1;
  private sparse: Map<number, number> | undefined;

  /** `denseSpan`: DENSE_SPAN but in tests, which take the same paths with narrower arrays */
  constructor(private readonly denseSpan = DENSE_SPAN) {}

  /** Adds `n` to a page's count (a bound function: `map.forEach(sums.add)` adds a whole map). */
  readonly add = (n: number, page: number): void => {
    // the common case inline: the page within the arrays
    let i = page - this.base;
    if (i < 0 || i >= this.counts.length) i = this.indexOf(page);
    if (i < 0) {
      this.sparse ??= new Map();
      this.sparse.set(page, (this.sparse.get(page) ?? 0) + n);
      return;
    }
    this.counts[i] += n;
    this.seen[i] = 1;
    if (i > this.top) this.top = i;
  };

  /** Sets a page's count. */
  set(page: number, n: number): this {
    const i = this.indexOf(page);
    if (i < 0) {
      this.sparse ??= new Map();
      this.sparse.set(page, n);
      return this;
    }
    this.counts[i] = n;
    this.seen[i] = 1;
    if (i > this.top) this.top = i;
    return this;
  }

  /** Adds these counts into another sum. */
  addTo(sum: PageCounts): void {
    sum.addSums(this);
  }

  /** Adds another sum's counts, page by page. */
  addSums(other: PageCounts): void {
    if (other.top >= 0) {
      if (!this.cover(other.base, other.base + other.top)) {
        // too far apart for one array: page by page
        other.forEach(this.add);
        return;
      }
      const at = other.base - this.base;
      const [counts, seen] = [this.counts, this.seen];
      const [from, fromSeen] = [other.counts, other.seen];
      for (let i = 0; i <= other.top; i++) {
        counts[at + i] += from[i];
        seen[at + i] |= fromSeen[i];
      }
      if (at + other.top > this.top) this.top = at + other.top;
    }
    other.sparse?.forEach(this.add);
  }

  /**
   * Grows the arrays at once to hold the pages from `low` to `high` (when they span at most the dense span): counts
   * about to be added over a known span grow them once, not once per doubling.
   */
  reserve(low: number, high: number): void {
    this.cover(low, high);
  }

  /** The page's index in the arrays, grown to hold it; -1 when it goes in the map. */
  private indexOf(page: number): number {
    return this.cover(page, page) ? page - this.base : -1;
  }

  /**
   * Grows the arrays to hold the pages from `low` to `high` beside those with entries; false when that would span
   * more than the dense span (the arrays are left as they were).
   */
  private cover(low: number, high: number): boolean {
    if (low >= this.base && high < this.base + this.counts.length) return true;
    // aligned down, so pages coming in descending order grow the arrays once per 1,024 of them, not once each
    const lowest = this.top >= 0 ? Math.min(this.base, low) : low;
    const first = lowest - (lowest % 1024);
    const end = this.top >= 0 ? Math.max(this.base + this.top + 1, high + 1) : high + 1;
    if (end - first > this.denseSpan) return false;
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(end - first)));
    const [counts, seen] = [new Float64Array(size), new Uint8Array(size)];
    const shift = this.base - first;
    if (this.top >= 0) {
      counts.set(this.counts.subarray(0, this.top + 1), shift);
      seen.set(this.seen.subarray(0, this.top + 1), shift);
    }
    this.top = this.top >= 0 ? this.top + shift : -1;
    [this.base, this.counts, this.seen] = [first, counts, seen];
    // pages put in the map while the arrays did not reach them move into the arrays
    if (this.sparse)
      for (const [at, n] of this.sparse) {
        const i = at - first;
        if (i < 0 || i >= size) continue;
        this.sparse.delete(at);
        counts[i] = n;
        seen[i] = 1;
        if (i > this.top) this.top = i;
      }
    return true;
  }

  /** Memory held, roughly (the cache's measure). */
  get byteLength(): number {
    return this.counts.length * 9 + (this.sparse?.size ?? 0) * 64;
  }

  /** A page's count, undefined when it has no entry. */
  get(page: number): number | undefined {
    const i = page - this.base;
    if (i >= 0 && i < this.seen.length) return this.seen[i] ? this.counts[i] : undefined;
    return this.sparse?.get(page);
  }

  /** Calls `visit(count, page)` for every page with an entry, in ascending page order. */
  forEach(visit: (n: number, page: number) => void): void {
    const sparse = this.sparse ? [...this.sparse.keys()].sort((x, y) => x - y) : [];
    let s = 0;
    for (; s < sparse.length && sparse[s] < this.base; s++) visit(this.sparse!.get(sparse[s])!, sparse[s]);
    const [counts, seen, base] = [this.counts, this.seen, this.base];
    for (let i = 0; i <= this.top; i++) if (seen[i]) visit(counts[i], base + i);
    for (; s < sparse.length; s++) visit(this.sparse!.get(sparse[s])!, sparse[s]);
  }

  /**
   * Every entry but the site's (page 0), pages ascending, as two arrays: a report's rows built from them cost a loop
   * over typed arrays, not a callback and a few pushes per row.
   */
  pageEntries(): { pages: Uint32Array; counts: Float64Array } {
    let n = this.sparse?.size ?? 0;
    for (let i = 0; i <= this.top; i++) n += this.seen[i];
    const pages = new Uint32Array(n);
    const counts = new Float64Array(n);
    let at = 0;
    this.forEach((count, page) => {
      if (page === 0) return;
      pages[at] = page;
      counts[at++] = count;
    });
    return { pages: pages.subarray(0, at), counts: counts.subarray(0, at) };
  }

  /** All pages' counts added up. */
  total(): number {
    let total = 0;
    this.forEach((n) => {
      total += n;
    });
    return total;
  }
}
