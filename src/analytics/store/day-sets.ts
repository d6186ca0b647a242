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
 * Adds to `into` the visitors of `page` that a part's stored blob (portable format) holds: the page's container alone
 * is found (a binary search of the header) and its keys turned back into visitor ids (see partOf and pairKey), without
 * indexing the others — a day holds thousands of them per part, and a reader of one page needs none of them.
 */
export function addPageVisitors(part: number, blob: Buffer, page: number, into: Bitmap): void {
  if (Math.floor(part / PAIRS) !== Math.floor(page / PAIRS)) return;
  const cursor = new ContainerCursor(blob);
  if (!cursor.seek(page % PAIRS)) return;
  const n = cursor.take(MEMBERS);
  const visitors = new Uint32Array(n);
  const high = (part % PAIRS) * PAIRS;
  for (let i = 0; i < n; i++) visitors[i] = high + MEMBERS[i];
  into.addMany(visitors);
}

/** Pair keys of one part as a stored blob is (portable format): how raw events are counted beside the stored days. */
export function pairsBlob(keys: number[]): Buffer {
  const bitmap = new RoaringBitmap32(keys);
  try {
    return Buffer.from(bitmap.serialize(true) as Uint8Array);
  } finally {
    bitmap.dispose();
  }
}

/** A container of more members than this is a bitset (CRoaring's DEFAULT_MAX_SIZE). */
const ARRAY_MAX = 4096;
/** With run containers, a bitmap of fewer containers than this has no offset header. */
const NO_OFFSET_THRESHOLD = 4;

/** Past the last container key of a part (keys are 16 bits). */
const END = PAIRS;

/** A stored blob's containers (portable format) in key order: each one's members read in place, none indexed. */
class ContainerCursor {
  key: number;
  private index = 0;
  private readonly size: number;
  private readonly header: number;
  private readonly runs: boolean;
  /** whether the blob has an offset header */
  private readonly offsets: boolean;
  /** where the current container's members start */
  private at: number;

  constructor(private readonly blob: Buffer) {
    ({ size: this.size, header: this.header, runs: this.runs } = portableHeader(blob));
    this.offsets = !this.runs || this.size >= NO_OFFSET_THRESHOLD;
    this.at = this.header + this.size * (this.offsets ? 8 : 4);
    this.key = this.size ? blob.readUInt16LE(this.header) : END;
  }

  /** Moves to the container of `key` (a binary search of the header): whether there is one. */
  seek(key: number): boolean {
    const { blob, header, size } = this;
    let low = 0;
    let high = size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const found = blob.readUInt16LE(header + mid * 4);
      if (found < key) low = mid + 1;
      else if (found > key) high = mid - 1;
      else {
        // where it starts: the offset header, or (a bitmap of few containers with runs has none) past those before it
        if (this.offsets) this.moveTo(blob.readUInt32LE(header + size * 4 + mid * 4), mid);
        else {
          this.moveTo(header + size * 4, 0);
          while (this.index < mid) this.skip();
        }
        return true;
      }
    }
    return false;
  }

  /** Writes the current container's members (low 16 bits) into `out`, moves to the next: how many it wrote. */
  take(out: Uint16Array): number {
    const { blob, index } = this;
    const cardinality = blob.readUInt16LE(this.header + index * 4 + 2) + 1;
    let n = 0;
    let at = this.at;
    if (this.isRun(index)) {
      const count = blob.readUInt16LE(at);
      for (let r = 0; r < count; r++) {
        const start = blob.readUInt16LE(at + 2 + r * 4);
        const end = start + blob.readUInt16LE(at + 4 + r * 4);
        for (let v = start; v <= end; v++) out[n++] = v;
      }
      at += 2 + 4 * count;
    } else if (cardinality > ARRAY_MAX) {
      for (let word = 0; word < 2048; word++) {
        let bits = blob.readUInt32LE(at + word * 4);
        while (bits) {
          out[n++] = word * 32 + 31 - Math.clz32(bits & -bits);
          bits &= bits - 1;
        }
      }
      at += 8192;
    } else {
      for (; n < cardinality; n++) out[n] = blob.readUInt16LE(at + n * 2);
      at += cardinality * 2;
    }
    this.moveTo(at);
    return n;
  }

  /** Moves to the next container without reading the current one's members. */
  skip(): void {
    const { blob, index } = this;
    const cardinality = blob.readUInt16LE(this.header + index * 4 + 2) + 1;
    if (this.isRun(index)) this.moveTo(this.at + 2 + 4 * blob.readUInt16LE(this.at));
    else this.moveTo(this.at + (cardinality > ARRAY_MAX ? 8192 : cardinality * 2));
  }

  private isRun(index: number): boolean {
    return this.runs && ((this.blob[4 + (index >> 3)] >> (index & 7)) & 1) === 1;
  }

  /** Moves to container `index` (by default the next), whose members start at `at`. */
  private moveTo(at: number, index = this.index + 1): void {
    this.at = at;
    this.index = index;
    this.key = this.index < this.size ? this.blob.readUInt16LE(this.header + this.index * 4) : END;
  }
}

/** Blobs of one class (a day set's kind, agent cells) and where their counts go: page → distinct visitors. */
export interface CountedBlobs {
  blobs: Buffer[];
  counts: Map<number, number>;
}

/**
 * Adds to each class's counts the distinct visitors per page (page 0 the site) of one part over its blobs (a range's
 * days, and its edges as pairsBlob), and to `both` those of the classes together: the blobs' containers are walked
 * side by side in page order and each page's members marked in a table of the part's 65,536 visitors, so no union is
 * built and no container indexed. Parts split visitors, so a page's counts over its parts add up. With `pages`, those
 * pages at least: a few are found by a binary search of every blob's header, more are walked with the others.
 */
export function countPartVisitors(
  part: number,
  classes: CountedBlobs[],
  options: { both?: Map<number, number>; pages?: ReadonlySet<number> } = {},
): void {
  const counted = classes.map(({ blobs, counts }, i) => ({
    cursors: blobs.map((blob) => new ContainerCursor(blob)),
    marks: markTable(i + 1),
    counts,
  }));
  const cursors = counted.flatMap((c) => c.cursors);
  // marks[v]: the stamp of the last page visitor v was counted for (per class, and for all, table 0): each page takes
  // a new stamp, which clears them all at once
  const bothMarks = markTable(0);
  const members = MEMBERS;
  const tally = new Int32Array(2);
  // a page's containers: those the cursors stand at (walking), or those a binary search finds (some pages)
  const countPage = (key: number, seek: boolean) => {
    const page = pageOf(part, key);
    const stamp = nextStamp();
    let both = 0;
    for (const { cursors: list, marks, counts } of counted) {
      tally[0] = 0;
      tally[1] = 0;
      for (const cursor of list)
        if (seek ? cursor.seek(key) : cursor.key === key)
          markMembers(members, cursor.take(members), marks, bothMarks, stamp, tally);
      if (tally[0]) counts.set(page, (counts.get(page) ?? 0) + tally[0]);
      both += tally[1];
    }
    if (both && options.both) options.both.set(page, (options.both.get(page) ?? 0) + both);
  };
  if (options.pages && options.pages.size <= SEEK_PAGES) {
    const block = Math.floor(part / PAIRS);
    const keys = [...options.pages].filter((page) => Math.floor(page / PAIRS) === block).map((page) => page % PAIRS);
    for (const key of keys.sort((a, b) => a - b)) countPage(key, true);
    return;
  }
  for (;;) {
    let key = END;
    for (const cursor of cursors) if (cursor.key < key) key = cursor.key;
    if (key === END) return;
    countPage(key, false);
  }
}

/**
 * Up to how many pages countPartVisitors finds by binary search: a search reads about a dozen keys of a blob's header,
 * a walk reads all of them (hundreds to thousands of containers per blob).
 */
const SEEK_PAGES = 64;

/** The visitor tables of countPartVisitors, reused by every count (they run one at a time: they are synchronous). */
const MARKS: Int32Array[] = [];
const MEMBERS = new Uint16Array(PAIRS);
let lastStamp = 0;

function markTable(i: number): Int32Array {
  while (MARKS.length <= i) MARKS.push(new Int32Array(PAIRS));
  return MARKS[i];
}

/** A stamp no table holds yet: the tables are cleared before the stamps would wrap. */
function nextStamp(): number {
  if (lastStamp === 2 ** 31 - 1) {
    for (const table of MARKS) table.fill(0);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/** Marks `n` members with `stamp`, adding to `tally` how many were new to `marks` and how many new to `bothMarks`. */
function markMembers(
  members: Uint16Array,
  n: number,
  marks: Int32Array,
  bothMarks: Int32Array,
  stamp: number,
  tally: Int32Array,
): void {
  let own = 0;
  let both = 0;
  for (let i = 0; i < n; i++) {
    const visitor = members[i];
    if (marks[visitor] === stamp) continue;
    marks[visitor] = stamp;
    own++;
    if (bothMarks[visitor] !== stamp) {
      bothMarks[visitor] = stamp;
      both++;
    }
  }
  tally[0] += own;
  tally[1] += both;
}
