import type { PageFigures } from './page-counts.js';
import roaring from 'roaring';

export const { RoaringBitmap32 } = roaring;
export type Bitmap = InstanceType<typeof RoaringBitmap32>;

/**
 * A read-only bitmap over a copy of a stored (portable) blob. Decoding a day's sets container by container costs
 * more than reading them (a day holds one small container per page and part: tens of thousands); a frozen view only
 * indexes them. Readers clone before changing a bitmap. The blob must be one Scribe wrote: a view over corrupt bytes
 * is not checked, so the fold, which changes what it reads, decodes with `deserialize` instead. A view cannot be
 * disposed (its memory is the aligned copy, freed by the garbage collector).
 */
export function frozenBitmap(blob: Buffer): Bitmap {
  const aligned = RoaringBitmap32.bufferAlignedAlloc(blob.length);
  blob.copy(aligned);
  return RoaringBitmap32.unsafeFrozenView(aligned, 'unsafe_frozen_portable');
}

/** Event classes as stored. Other bots are kept in raw events only. */
export const KIND = { bot: 0, human: 1, ai: 2 } as const;
export type CountedKind = typeof KIND.human | typeof KIND.ai;

/** Page 0 of every day set is the whole site, so site-wide distinct counts come from the same bitmaps. */
export const SITE_PAGE = 0;

/**
 * A (page, visitor) pair is stored in part `(page >> 16) * 65536 + (visitor >> 16)` under the 32-bit key
 * `(page & 0xffff) << 16 | (visitor & 0xffff)`. Roaring groups keys by their high 16 bits, so inside a part every
 * container is exactly one page's visitors, and a page's distinct count is its container's cardinality — readable
 * from the serialized header without touching the members.
 */
export function partOf(pageId: number, visitorId: number): number {
  return (pageId >>> 16) * 65536 + (visitorId >>> 16);
}

export function pairKey(pageId: number, visitorId: number): number {
  return (((pageId & 0xffff) << 16) | (visitorId & 0xffff)) >>> 0;
}

/**
 * Per page block, the keys of `pages` within a part of that block (their containers), for unions of those pages
 * alone: a report that shows one page of rows unites their visitors, not every page's. `of(part)` is undefined when
 * the part holds none of them; `dispose` frees the masks.
 */
export function pageMasks(pages: readonly number[]) {
  const masks = new Map<number, Bitmap | undefined>();
  return {
    of(part: number): Bitmap | undefined {
      const block = Math.floor(part / 65536);
      if (masks.has(block)) return masks.get(block);
      const mask = new RoaringBitmap32();
      for (const page of pages) {
        if (Math.floor(page / 65536) === block) mask.addRange((page % 65536) * 65536, (page % 65536) * 65536 + 65536);
      }
      masks.set(block, mask.isEmpty ? undefined : mask);
      return masks.get(block);
    },
    dispose() {
      for (const mask of masks.values()) mask?.dispose();
    },
  };
}

/** Page number of a container in a part. */
export function pageOf(part: number, containerKey: number): number {
  return Math.floor(part / 65536) * 65536 + containerKey;
}

/** One day's (or part of a day's) sets: part → bitmap, per counted kind. */
export interface PairSets {
  human: Map<number, Bitmap>;
  ai: Map<number, Bitmap>;
}

/** Adds a visitor's view of a page (and of the site) to pending key lists, grouped by part. */
export function addPair(target: Map<number, number[]>, pageId: number, visitorId: number): void {
  for (const page of [pageId, SITE_PAGE]) {
    const part = partOf(page, visitorId);
    let keys = target.get(part);
    if (!keys) target.set(part, (keys = []));
    keys.push(pairKey(page, visitorId));
  }
}

const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
const SERIAL_COOKIE = 12347;

/**
 * Per-container cardinalities of a bitmap in the portable format (CRoaring's spec): container key → count.
 * Calls `visit(key, cardinality)` for each container.
 */
export function forEachContainer(serialized: Buffer, visit: (key: number, cardinality: number) => void): void {
  const cookie = serialized.readUInt32LE(0);
  let size: number;
  let offset: number;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1;
    offset = 4 + ((size + 7) >> 3);
  } else if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    size = serialized.readUInt32LE(4);
    offset = 8;
  } else {
    throw new Error('not a portable roaring bitmap');
  }
  for (let i = 0; i < size; i++, offset += 4) {
    visit(serialized.readUInt16LE(offset), serialized.readUInt16LE(offset + 2) + 1);
  }
}

/** Reused for every serialization whose header is read (one at a time: the reads are synchronous). */
let scratch = Buffer.allocUnsafe(1 << 20);

/** Distinct visitors per page of the given part bitmap, added into `counts` (page → count). */
export function addPageCardinalities(part: number, bitmap: Bitmap, counts: PageFigures): void {
  if (bitmap.isEmpty) return;
  const size = bitmap.getSerializationSizeInBytes(true);
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  bitmap.serialize(true, scratch);
  forEachContainer(scratch, (key, cardinality) => {
    const page = pageOf(part, key);
    counts.set(page, (counts.get(page) ?? 0) + cardinality);
  });
}

const PAIRS = 65536;

/**
 * Adds to `into` the visitors of `page` that a part's bitmap of (page, visitor) pairs holds: the page's container,
 * its keys turned back into visitor ids (see partOf and pairKey).
 */
export function addPageVisitors(part: number, bitmap: Bitmap, page: number, into: Bitmap): void {
  if (Math.floor(part / PAIRS) !== Math.floor(page / PAIRS)) return;
  const low = (page % PAIRS) * PAIRS;
  const n = bitmap.rangeCardinality(low, low + PAIRS);
  if (!n) return;
  const keys = bitmap.rangeUint32Array(low ? bitmap.rank(low - 1) : 0, n);
  const high = (part % PAIRS) * PAIRS;
  for (let i = 0; i < keys.length; i++) keys[i] = high + (keys[i] - low);
  into.addMany(keys);
}
