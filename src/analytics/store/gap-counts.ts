import { addPageCardinalities, RoaringBitmap32, type Bitmap } from './day-sets.js';
import { PageCounts } from './page-counts.js';

/**
 * Gap counts: per day, column and page, how many of the day's visitors were last seen in the column — on that page —
 * how many days before (1 … GAP_DAYS), or not within GAP_DAYS days (gap 0). Any range of up to GAP_DAYS + 1 whole
 * days then has an exact distinct count per page as a sum over its days: a visitor counts on the first day of the
 * range it was seen, which is the one day on which its gap reaches back past the range's first day. That costs a read
 * of the range's counts (pages × days, plus the revisits), whatever the number of (page, visitor) pairs the range
 * holds: unions of day sets cost by those pairs.
 *
 * A column is the union of member sets ("cells"): the human day sets, the AI ones, both for `total`; an agent's
 * verified and unverifiable cells; a purpose's agents. The counts are kept exactly a function of the members' stored
 * sets: each added entry is counted with its gap to the day before, and the next day it was seen on (a late event
 * lands before it) has that entry's gap moved. Entries are processed day by day in ascending order, so an entry's
 * earlier days are already counted and its later days not yet.
 */
export const GAP_DAYS = 31;

/** One column's changes from a chunk: day → page → gap → delta. */
export type GapDeltas = Map<number, Map<number, Map<number, number>>>;

/** A member's set for a day and part: the stored set after the chunk was merged, and what the chunk added to it. */
export interface MemberSet {
  /** every entry, the chunk's included */
  set: Bitmap;
  /** the entries the chunk added (absent before it); undefined when none */
  added?: Bitmap;
}

/**
 * The entries new to a column on one day and part: added to some member and in no member before the chunk. A member
 * set before the chunk is `set ∖ added`, so X ∖ before = (X ∖ set) ∪ (X ∩ added).
 */
export function newToColumn(members: MemberSet[]): Bitmap | undefined {
  const adds = members.flatMap((m) => (m.added && !m.added.isEmpty ? [m.added] : []));
  if (!adds.length) return undefined;
  let entries = RoaringBitmap32.orMany(adds);
  for (const { set, added } of members) {
    const outside = RoaringBitmap32.andNot(entries, set);
    if (added) {
      const readded = RoaringBitmap32.and(entries, added);
      outside.orInPlace(readded);
      readded.dispose();
    }
    entries.dispose();
    entries = outside;
  }
  return entries;
}

/** The entries of `entries` that are in any of the member sets. */
function inAny(entries: Bitmap, sets: Bitmap[]): Bitmap {
  const found = new RoaringBitmap32();
  for (const set of sets) {
    const both = RoaringBitmap32.and(entries, set);
    found.orInPlace(both);
    both.dispose();
  }
  return found;
}

function addCounts(deltas: GapDeltas, day: number, gap: number, part: number, entries: Bitmap, sign: 1 | -1): void {
  const counts = new Map<number, number>();
  addPageCardinalities(part, entries, counts);
  let pages = deltas.get(day);
  if (!pages) deltas.set(day, (pages = new Map()));
  for (const [page, n] of counts) {
    let gaps = pages.get(page);
    if (!gaps) pages.set(page, (gaps = new Map()));
    gaps.set(gap, (gaps.get(gap) ?? 0) + sign * n);
  }
}

/**
 * A column's gap-count changes for one part, given its new entries per day (`fresh`, from newToColumn) and its
 * member sets on any day (`setsOn`: after the chunk; days without data give none). Adds into `deltas`. `seenWithin`,
 * when given, holds bitmaps whose union includes every entry of the column seen on the GAP_DAYS days before `day`
 * (more does no harm): entries outside it are not looked for day by day.
 */
export function columnGapDeltas(params: {
  part: number;
  fresh: Map<number, Bitmap>;
  setsOn: (day: number) => Bitmap[];
  seenWithin?: (day: number) => Bitmap[];
  deltas: GapDeltas;
}): void {
  const { part, fresh, setsOn, seenWithin, deltas } = params;
  for (const day of [...fresh.keys()].sort((a, b) => a - b)) {
    const entries = fresh.get(day)!;
    if (entries.isEmpty) continue;
    // the day before each entry was last seen: days before this one are counted already (ascending order)
    const byGap: [number, Bitmap][] = [];
    const unseen = entries.clone();
    // entries seen on none of those days: unseen without a look at each day
    const maybe = seenWithin ? inAny(unseen, seenWithin(day)) : unseen.clone();
    try {
      for (let gap = 1; gap <= GAP_DAYS && !maybe.isEmpty; gap++) {
        const seen = inAny(maybe, setsOn(day - gap));
        if (seen.isEmpty) {
          seen.dispose();
          continue;
        }
        maybe.andNotInPlace(seen);
        unseen.andNotInPlace(seen);
        byGap.push([gap, seen]);
        addCounts(deltas, day, gap, part, seen, 1);
      }
      addCounts(deltas, day, 0, part, unseen, 1);
      byGap.push([0, unseen.clone()]);
      // the next day each entry was seen on, as counted so far (the chunk's own entries of later days are not yet):
      // its gap was to the entry's previous day and is now to this one
      const later = entries.clone();
      try {
        for (let ahead = 1; ahead <= GAP_DAYS && !later.isEmpty; ahead++) {
          const sets = setsOn(day + ahead);
          if (!sets.length) continue;
          const next = inAny(later, sets);
          const pending = fresh.get(day + ahead);
          if (pending) next.andNotInPlace(pending);
          if (!next.isEmpty) {
            later.andNotInPlace(next);
            for (const [gap, group] of byGap) {
              const moved = RoaringBitmap32.and(next, group);
              if (!moved.isEmpty) {
                const old = gap === 0 || gap + ahead > GAP_DAYS ? 0 : gap + ahead;
                addCounts(deltas, day + ahead, old, part, moved, -1);
                addCounts(deltas, day + ahead, ahead, part, moved, 1);
              }
              moved.dispose();
            }
          }
          next.dispose();
        }
      } finally {
        later.dispose();
      }
    } finally {
      unseen.dispose();
      maybe.dispose();
      for (const [, group] of byGap) group.dispose();
    }
  }
}

/**
 * A day's gap counts of one part recounted from the sets (for a backfill): the same figures columnGapDeltas keeps,
 * from the members' sets on the day and on the GAP_DAYS days before it.
 */
export function recountGaps(params: {
  day: number;
  part: number;
  setsOn: (day: number) => Bitmap[];
  deltas: GapDeltas;
}): void {
  const { day, part, setsOn, deltas } = params;
  const sets = setsOn(day);
  if (!sets.length) return;
  const unseen = RoaringBitmap32.orMany(sets);
  try {
    for (let gap = 1; gap <= GAP_DAYS && !unseen.isEmpty; gap++) {
      const seen = inAny(unseen, setsOn(day - gap));
      if (!seen.isEmpty) {
        unseen.andNotInPlace(seen);
        addCounts(deltas, day, gap, part, seen, 1);
      }
      seen.dispose();
    }
    addCounts(deltas, day, 0, part, unseen, 1);
  } finally {
    unseen.dispose();
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The blob's little-endian uint32 words, read in place when it is aligned and the machine little-endian. */
function uint32Words(blob: Buffer): Uint32Array {
  if (LITTLE_ENDIAN && blob.byteOffset % 4 === 0)
    return new Uint32Array(blob.buffer, blob.byteOffset, blob.length >> 2);
  const words = new Uint32Array(blob.length >> 2);
  for (let i = 0; i < words.length; i++) words[i] = blob.readUInt32LE(i * 4);
  return words;
}

/** A day's counts of a column as stored: little-endian uint32 triples (page, gap, count), by page then gap. */
export function encodeGapCounts(pages: Map<number, Map<number, number>>): Buffer {
  const triples: number[] = [];
  for (const page of [...pages.keys()].sort((a, b) => a - b)) {
    const gaps = pages.get(page)!;
    for (const gap of [...gaps.keys()].sort((a, b) => a - b)) {
      const n = gaps.get(gap)!;
      if (n < 0) throw new Error(`gap count below zero (page ${page}, gap ${gap})`);
      if (n > 0) triples.push(page, gap, n);
    }
  }
  const out = Buffer.alloc(triples.length * 4);
  for (let i = 0; i < triples.length; i++) out.writeUInt32LE(triples[i], i * 4);
  return out;
}

export function decodeGapCounts(blob: Buffer): Map<number, Map<number, number>> {
  const pages = new Map<number, Map<number, number>>();
  for (let at = 0; at + 12 <= blob.length; at += 12) {
    const page = blob.readUInt32LE(at);
    let gaps = pages.get(page);
    if (!gaps) pages.set(page, (gaps = new Map()));
    gaps.set(blob.readUInt32LE(at + 4), blob.readUInt32LE(at + 8));
  }
  return pages;
}

/** Stored counts with a chunk's deltas applied (undefined stored: none yet); pages left with nothing are dropped. */
export function applyGapDeltas(
  stored: Buffer | undefined,
  deltas: Map<number, Map<number, number>>,
): Map<number, Map<number, number>> {
  const pages = stored ? decodeGapCounts(stored) : new Map<number, Map<number, number>>();
  for (const [page, gaps] of deltas) {
    let counts = pages.get(page);
    if (!counts) pages.set(page, (counts = new Map()));
    for (const [gap, n] of gaps) counts.set(gap, (counts.get(gap) ?? 0) + n);
  }
  return pages;
}

/**
 * Adds a day's stored counts to distinct visitors per page over a range whose first whole day is `daysIn` days before
 * this one: the visitors not seen on the range's earlier days (gap 0, or a gap reaching back past its first day).
 */
export function addRangeDay(blob: Buffer, daysIn: number, add: (n: number, page: number) => void): void {
  const words = uint32Words(blob);
  for (let at = 0; at + 2 < words.length; at += 3) {
    const gap = words[at + 1];
    if (gap === 0 || gap > daysIn) add(words[at + 2], words[at]);
  }
}

/**
 * addRangeDay for some pages alone (ascending, distinct): a blob's triples are sorted by page, so each page's are found
 * by a binary search from where the previous page's ended, and the others are not read. A report that shows one page
 * of rows needs the visitors of those rows' pages (and the site's), not of the thousands of pages a day holds.
 */
export function addRangeDayPages(
  blob: Buffer,
  daysIn: number,
  pages: readonly number[],
  add: (n: number, page: number) => void,
): void {
  const words = uint32Words(blob);
  const triples = Math.floor(words.length / 3);
  let at = 0;
  for (const page of pages) {
    let end = triples;
    while (at < end) {
      const middle = (at + end) >>> 1;
      if (words[middle * 3] < page) at = middle + 1;
      else end = middle;
    }
    // the page's gaps added here, then once to the sums: a call per page, not per gap
    let sum = 0;
    let found = false;
    for (; at < triples && words[at * 3] === page; at++) {
      const gap = words[at * 3 + 1];
      if (gap === 0 || gap > daysIn) {
        sum += words[at * 3 + 2];
        found = true;
      }
    }
    if (found) add(sum, page);
  }
}

/** Page ids ascending and distinct, as sumRangeDays takes them. */
export function sortedPages(pages: Iterable<number>): number[] {
  return [...new Set(pages)].sort((a, b) => a - b);
}

/**
 * Distinct visitors per page over a range from its days' stored counts (`days`: each day's blob and its distance from
 * the range's first day), as addRangeDay adds them, in PageCounts (an array by page, not a map: a range reads days ×
 * pages counts, so the sum is the report's main work). With `pages` (ascending, distinct), those pages' alone: the
 * others have no entry.
 */
export function sumRangeDays(
  days: { blob: Buffer; daysIn: number }[],
  options: { pages?: readonly number[] } = {},
): PageCounts {
  const counts = new PageCounts();
  const { pages } = options;
  for (const { blob, daysIn } of days) {
    if (pages) addRangeDayPages(blob, daysIn, pages, counts.add);
    else addRangeDay(blob, daysIn, counts.add);
  }
  return counts;
}
