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
 * i.e. as a re-import of the first.
 */
export class LineOccurrences {
  /** digest → copies so far and when last seen; Map order is least recently seen first */
  private readonly seen = new Map<string, { count: number; at: number }>();
  private read = 0;

  constructor(private readonly window = OCCURRENCE_WINDOW) {}

  /** The occurrence number of this copy of a line, identified by a digest of its text. */
  next(digest: string): number {
    const at = ++this.read;
    const count = (this.seen.get(digest)?.count ?? 0) + 1;
    this.seen.delete(digest);
    this.seen.set(digest, { count, at });
    for (const [oldest, entry] of this.seen) {
      if (entry.at > at - this.window) break;
      this.seen.delete(oldest);
    }
    return count;
  }
}
