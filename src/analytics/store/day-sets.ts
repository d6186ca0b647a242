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

/** Adds a visitor's view of a page (and of the site) to pending key lists, grouped by part. */
export function addPair(target: Map<number, number[]>, pageId: number, visitorId: number): void {
  for (const page of [pageId, SITE_PAGE]) {
    const part = partOf(page, visitorId);
    let keys = target.get(part);
    if (!keys) target.set(part, (keys = []));
    keys.push(pairKey(page, visitorId));
  }
}

/** Pages (or visitors) per part: the low 16 bits of a pair key's halves. */
const PAIRS = 65536;

const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
const SERIAL_COOKIE = 12347;

/**
 * Per-container cardinalities of a bitmap in the portable format (CRoaring's spec): container key → count.
 * Calls `visit(key, cardinality)` for each container.
 */
export function forEachContainer(serialized: Buffer, visit: (key: number, cardinality: number) => void): void {
  const { size, header } = portableHeader(serialized);
  for (let i = 0, offset = header; i < size; i++, offset += 4) {
    visit(serialized.readUInt16LE(offset), serialized.readUInt16LE(offset + 2) + 1);
  }
}

/** Where a portable bitmap's descriptive header (key, cardinality − 1 per container) starts, and its containers. */
function portableHeader(serialized: Buffer): { size: number; header: number; runs: boolean } {
  const cookie = serialized.readUInt32LE(0);
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    const size = (cookie >>> 16) + 1;
    return { size, header: 4 + ((size + 7) >> 3), runs: true };
  }
  if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) return { size: serialized.readUInt32LE(4), header: 8, runs: false };
  throw new Error('not a portable roaring bitmap');
}

/** The parts holding a page's pairs: those of its block of 65,536 pages, every visitor (see partOf), as [from, to). */
export function partsOfPage(pageId: number): [number, number] {
  const first = Math.floor(pageId / PAIRS) * PAIRS;
  return [first, first + PAIRS];
}

/**
 * The pairs of one page that a part's stored blob (portable format) holds, as a new bitmap of the same keys: the
 * page's container alone is found (a binary search of the header) and copied, without indexing the others — a day
 * holds thousands of them per part, and a reader of one page needs none of them.
 */
export function pagePairsOfBlob(blob: Buffer, part: number, page: number): Bitmap {
  const pairs = new RoaringBitmap32();
  if (Math.floor(part / PAIRS) !== Math.floor(page / PAIRS)) return pairs;
  const { size, header, runs } = portableHeader(blob);
  const isRun = (i: number) => runs && ((blob[4 + (i >> 3)] >> (i & 7)) & 1) === 1;
  const cardinality = (i: number) => blob.readUInt16LE(header + i * 4 + 2) + 1;
  const key = page % PAIRS;
  let [low, high, at] = [0, size - 1, -1];
  while (low <= high && at < 0) {
    const mid = (low + high) >>> 1;
    const k = blob.readUInt16LE(header + mid * 4);
    if (k < key) low = mid + 1;
    else if (k > key) high = mid - 1;
    else at = mid;
  }
  if (at < 0) return pairs;
  // where the container starts: the offsets (absent for a small bitmap with runs), or the sizes of those before it
  let offset: number;
  if (!runs || size >= NO_OFFSET_THRESHOLD) offset = blob.readUInt32LE(header + size * 4 + at * 4);
  else {
    offset = header + size * 4;
    for (let i = 0; i < at; i++) {
      const card = cardinality(i);
      offset += isRun(i) ? 2 + 4 * blob.readUInt16LE(offset) : card > ARRAY_MAX ? 8192 : card * 2;
    }
  }
  const base = key * PAIRS;
  const card = cardinality(at);
  if (isRun(at)) {
    const count = blob.readUInt16LE(offset);
    for (let r = 0; r < count; r++) {
      const start = blob.readUInt16LE(offset + 2 + r * 4);
      pairs.addRange(base + start, base + start + blob.readUInt16LE(offset + 4 + r * 4) + 1);
    }
  } else if (card > ARRAY_MAX) {
    const keys: number[] = [];
    for (let word = 0; word < 2048; word++) {
      let bits = blob.readUInt32LE(offset + word * 4);
      while (bits) {
        const bit = 31 - Math.clz32(bits & -bits);
        keys.push(base + word * 32 + bit);
        bits &= bits - 1;
      }
    }
    pairs.addMany(keys);
  } else {
    const keys = new Uint32Array(card);
    for (let i = 0; i < card; i++) keys[i] = base + blob.readUInt16LE(offset + i * 2);
    pairs.addMany(keys);
  }
  return pairs;
}

/** A container of more members than this is a bitset (CRoaring's DEFAULT_MAX_SIZE). */
const ARRAY_MAX = 4096;
/** With run containers, a bitmap of fewer containers than this has no offset header. */
const NO_OFFSET_THRESHOLD = 4;

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
