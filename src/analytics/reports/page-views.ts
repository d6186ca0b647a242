/** above this page id, views are added in a map rather than an array */
const DENSE_PAGES = 1 << 22;

/**
 * Views per page being added up. Page ids are dictionary ids, small and dense, so views are added in an array indexed
 * by page (ids from DENSE_PAGES on in a map): a map lookup and update per entry costs several times more, and two
 * sums add as two arrays do. Reports read it by page, or page by page in ascending order.
 */
export class PageViews {
  private dense = new Float64Array(0);
  private seen = new Uint8Array(0);
  /** highest page id in the array with views, -1 when none */
  private top = -1;
  private sparse: Map<number, number> | undefined;

  /** Adds `n` views of `page` (a bound function: `map.forEach(sums.add)` adds a whole map). */
  readonly add = (n: number, page: number): void => {
    if (page >= this.dense.length) {
      if (page >= DENSE_PAGES) {
        this.sparse ??= new Map();
        this.sparse.set(page, (this.sparse.get(page) ?? 0) + n);
        return;
      }
      this.grow(page + 1);
    }
    this.dense[page] += n;
    this.seen[page] = 1;
    if (page > this.top) this.top = page;
  };

  /** Adds another sum's views, page by page. */
  addSums(other: PageViews): void {
    if (other.top >= this.dense.length) this.grow(other.top + 1);
    const [dense, seen] = [this.dense, this.seen];
    const [from, fromSeen] = [other.dense, other.seen];
    for (let page = 0; page <= other.top; page++) {
      dense[page] += from[page];
      seen[page] |= fromSeen[page];
    }
    if (other.top > this.top) this.top = other.top;
    other.sparse?.forEach(this.add);
  }

  private grow(length: number): void {
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(length)));
    const [dense, seen] = [new Float64Array(size), new Uint8Array(size)];
    dense.set(this.dense);
    seen.set(this.seen);
    [this.dense, this.seen] = [dense, seen];
  }

  /** Views of a page, 0 when it has none. */
  get(page: number): number {
    return page < this.dense.length ? this.dense[page] : (this.sparse?.get(page) ?? 0);
  }

  /** Whether the page has an entry (views were added for it, perhaps 0). */
  has(page: number): boolean {
    return page < this.seen.length ? this.seen[page] === 1 : (this.sparse?.has(page) ?? false);
  }

  /** Calls `visit(views, page)` for every page with an entry, in ascending page order. */
  forEach(visit: (views: number, page: number) => void): void {
    const [dense, seen] = [this.dense, this.seen];
    for (let page = 0; page <= this.top; page++) if (seen[page]) visit(dense[page], page);
    if (this.sparse)
      for (const page of [...this.sparse.keys()].sort((x, y) => x - y)) visit(this.sparse.get(page)!, page);
  }

  /** Every page with an entry, ascending. */
  pages(): number[] {
    const pages: number[] = [];
    this.forEach((_, page) => {
      pages.push(page);
    });
    return pages;
  }

  /** All views, every page's. */
  total(): number {
    let total = 0;
    this.forEach((n) => {
      total += n;
    });
    return total;
  }

  /** The sums as a map, pages in ascending order. */
  toMap(): Map<number, number> {
    const map = new Map<number, number>();
    this.forEach((n, page) => {
      map.set(page, n);
    });
    return map;
  }
}
