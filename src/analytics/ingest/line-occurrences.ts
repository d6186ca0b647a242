import { LRUCache } from 'lru-cache';

/** Page-view lines a line is remembered for after it was last seen: ~11 MB of digests at most. */
export const OCCURRENCE_WINDOW = 100_000;

/**
 * Numbers the copies of identical lines within one import: the Nth copy of a line is occurrence N.
 *
 * Combined logs have one-second resolution, so one reader opening a page twice in a second writes two identical
 * lines: they are two views, yet re-importing the file must not add them again. Keying each line with its
 * occurrence number does both — the Nth copy is a view of its own, and the same file (or a longer version of it)
 * numbers its copies the same way again. The count runs over the whole import, never per batch or read chunk.
 *
 * Identical lines carry the same timestamp, so they sit close together in a log. To keep memory bounded a line not
 * seen for `window` page-view lines is forgotten: a copy further away than that would count as occurrence 1 again,
 * i.e. as a re-import of the first. The cache's clock is the line count, so "not seen for" is counted in lines.
 */
export class LineOccurrences {
  private read = 0;
  /** digest → copies so far; at most `window` lines were seen within the window, so `max` never drops a live one */
  private readonly seen: LRUCache<string, number>;

  constructor(window = OCCURRENCE_WINDOW) {
    this.seen = new LRUCache({
      max: window,
      ttl: window,
      // the line count only moves on next(): no timer-based resolution of "now"
      ttlResolution: 0,
      perf: { now: () => this.read },
    });
  }

  /** The occurrence number of this copy of a line, identified by a digest of its text. */
  next(digest: string): number {
    this.read++;
    const count = (this.seen.get(digest) ?? 0) + 1;
    this.seen.set(digest, count);
    return count;
  }
}
