import { PageCounts } from '../../../src/analytics/store/page-counts.js';
import { addPair, RoaringBitmap32, type Bitmap } from '../../../src/analytics/store/day-sets.js';
import {
  addRangeDay,
  applyGapDeltas,
  columnGapDeltas,
  decodeGapCounts,
  encodeGapCounts,
  GAP_DAYS,
  type GapDeltas,
  newToColumn,
  recountGaps,
  sortedPages,
  sumRangeDays,
} from '../../../src/analytics/store/gap-counts.js';

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type View = { member: number; day: number; page: number; visitor: number };

/**
 * Two member sets (say human and AI) and their union column, kept the way the fold keeps them: chunks merged into
 * per (member, day, part) bitmaps, then the column's deltas applied. Stored counts: day → encoded blob.
 */
class Column {
  sets = new Map<string, Bitmap>(); // member\0day\0part → bitmap
  stored = new Map<number, Buffer>();

  constructor(private readonly members: number[]) {}

  private setsOn(day: number, part: number): Bitmap[] {
    return this.members.flatMap((m) => {
      const set = this.sets.get(`${m}\0${day}\0${part}`);
      return set ? [set] : [];
    });
  }

  add(chunk: View[]): void {
    // merge the chunk per member, day and part, keeping what it added
    const keys = new Map<string, Map<number, number[]>>(); // member\0day → part → keys
    for (const v of chunk) {
      const key = `${v.member}\0${v.day}`;
      let parts = keys.get(key);
      if (!parts) keys.set(key, (parts = new Map()));
      addPair(parts, v.page, v.visitor);
    }
    const added = new Map<string, Bitmap>();
    for (const [key, parts] of keys) {
      for (const [part, list] of parts) {
        const setKey = `${key}\0${part}`;
        let set = this.sets.get(setKey);
        if (!set) this.sets.set(setKey, (set = new RoaringBitmap32()));
        const fresh = new RoaringBitmap32(list);
        fresh.andNotInPlace(set);
        set.orInPlace(fresh);
        added.set(setKey, fresh);
      }
    }
    // the column's new entries per part and day
    const byPart = new Map<number, Map<number, Bitmap>>();
    for (const setKey of added.keys()) {
      const [, day, part] = setKey.split('\0').map(Number);
      const days = byPart.get(part) ?? new Map<number, Bitmap>();
      byPart.set(part, days);
      if (days.has(day)) continue;
      const entries = newToColumn(
        this.members.flatMap((m) => {
          const set = this.sets.get(`${m}\0${day}\0${part}`);
          return set ? [{ set, added: added.get(`${m}\0${day}\0${part}`) }] : [];
        }),
      );
      if (entries) days.set(day, entries);
    }
    const deltas: GapDeltas = new Map();
    for (const [part, fresh] of byPart) columnGapDeltas({ part, fresh, setsOn: (d) => this.setsOn(d, part), deltas });
    for (const [day, pages] of deltas)
      this.stored.set(day, encodeGapCounts(applyGapDeltas(this.stored.get(day), pages)));
  }

  /** Distinct visitors per page over whole days [first, end) from the stored counts (of `pages` alone if given). */
  rangeCounts(first: number, end: number, pages?: number[]): Map<number, number> {
    const days: { blob: Buffer; daysIn: number }[] = [];
    for (let day = first; day < end; day++) {
      const blob = this.stored.get(day);
      if (blob) days.push({ blob, daysIn: day - first });
    }
    return drop0(sumRangeDays(days, { pages }).toMap());
  }

  recounted(): Map<number, Buffer> {
    const days = new Set<number>();
    const parts = new Set<number>();
    for (const key of this.sets.keys()) {
      const [, day, part] = key.split('\0').map(Number);
      days.add(day);
      parts.add(part);
    }
    const out = new Map<number, Buffer>();
    for (const day of days) {
      const deltas: GapDeltas = new Map();
      for (const part of parts) recountGaps({ day, part, setsOn: (d) => this.setsOn(d, part), deltas });
      const pages = deltas.get(day);
      if (pages) out.set(day, encodeGapCounts(applyGapDeltas(undefined, pages)));
    }
    return out;
  }
}

const drop0 = (counts: Map<number, number>) => new Map([...counts].filter(([, n]) => n !== 0));

/** Distinct visitors per page (page 0: every page) of the views of `members` on days [first, end), counted naively. */
function naive(views: View[], members: number[], first: number, end: number): Map<number, number> {
  const seen = new Map<number, Set<number>>();
  for (const v of views) {
    if (!members.includes(v.member) || v.day < first || v.day >= end) continue;
    for (const page of [v.page, 0]) {
      const set = seen.get(page) ?? new Set<number>();
      seen.set(page, set);
      set.add(v.visitor);
    }
  }
  return new Map([...seen].map(([page, set]) => [page, set.size]));
}

/** A site where visitors come back: few pages and visitors, some above 16 bits (other parts), over `days` days. */
function views(random: () => number, n: number, days: number): View[] {
  const out: View[] = [];
  for (let i = 0; i < n; i++) {
    const visitor = random() < 0.2 ? 65536 + Math.floor(random() * 30) : 1 + Math.floor(random() * 40);
    out.push({
      member: random() < 0.7 ? 1 : 2,
      day: 20_000 + Math.floor(random() * days),
      page: 1 + Math.floor(random() * 6),
      visitor,
    });
  }
  return out;
}

describe('gap counts', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`count every range of up to ${GAP_DAYS + 1} whole days exactly, for chunks in any order (seed ${seed})`, () => {
      const random = rng(seed);
      const all = views(random, 3000, 80);
      // chunks out of time order, and some views twice (a repeated chunk, a rebuild)
      const shuffled = [...all].sort(() => random() - 0.5);
      const chunks: View[][] = [];
      for (let at = 0; at < shuffled.length; ) {
        const size = 1 + Math.floor(random() * 400);
        chunks.push(shuffled.slice(at, at + size));
        at += size;
      }
      chunks.push(all.slice(0, 300));
      const columns = { human: [1], ai: [2], total: [1, 2] };
      const kept = Object.fromEntries(Object.entries(columns).map(([name, members]) => [name, new Column(members)]));
      for (const chunk of chunks) for (const column of Object.values(kept)) column.add(chunk);
      for (const [name, members] of Object.entries(columns)) {
        for (let trial = 0; trial < 60; trial++) {
          const length = 1 + Math.floor(random() * (GAP_DAYS + 1));
          const first = 20_000 - 3 + Math.floor(random() * 86);
          const got = kept[name].rangeCounts(first, first + length);
          expect({ name, first, length, counts: Object.fromEntries(got) }).toEqual({
            name,
            first,
            length,
            counts: Object.fromEntries(naive(all, members, first, first + length)),
          });
          // some pages alone (the site, pages without views, none at all): the same figures for those, no others
          const pages = sortedPages([0, 1, 2, 3, 4, 5, 6, 99].filter(() => random() < 0.4));
          const wanted = [...naive(all, members, first, first + length)].filter(([page]) => pages.includes(page));
          expect({ pages, counts: Object.fromEntries(kept[name].rangeCounts(first, first + length, pages)) }).toEqual({
            pages,
            counts: Object.fromEntries(wanted),
          });
        }
        // a backfill's recount leaves the same counts as the chunks did
        const recounted = kept[name].recounted();
        expect(new Map([...kept[name].stored].filter(([, blob]) => blob.length))).toEqual(recounted);
      }
    });
  }

  it('encode by page and gap, drop what reached zero, and refuse a count below zero', () => {
    const pages = new Map([
      [
        7,
        new Map([
          [0, 2],
          [3, 1],
        ]),
      ],
      [2, new Map([[5, 0]])],
    ]);
    const blob = encodeGapCounts(pages);
    expect([...decodeGapCounts(blob)]).toEqual([
      [
        7,
        new Map([
          [0, 2],
          [3, 1],
        ]),
      ],
    ]);
    expect(() => encodeGapCounts(new Map([[1, new Map([[0, -1]])]]))).toThrow(/below zero/);
  });

  it('sum pages far apart in a map, as close ones in an array', () => {
    const day = (triples: [number, number, number][]) => {
      const pages = new Map<number, Map<number, number>>();
      for (const [page, gap, n] of triples) pages.set(page, (pages.get(page) ?? new Map()).set(gap, n));
      return encodeGapCounts(pages);
    };
    const near = [
      {
        blob: day([
          [3, 0, 2],
          [9, 0, 1],
        ]),
        daysIn: 0,
      },
      {
        blob: day([
          [3, 1, 5],
          [4, 2, 1],
        ]),
        daysIn: 1,
      },
    ];
    expect(sumRangeDays(near).toMap()).toEqual(
      new Map([
        [3, 2],
        [9, 1],
        [4, 1],
      ]),
    );
    const far = [
      {
        blob: day([
          [3, 0, 2],
          [9_000_000, 0, 1],
        ]),
        daysIn: 0,
      },
      {
        blob: day([
          [3, 1, 5],
          [9_000_000, 2, 4],
        ]),
        daysIn: 1,
      },
    ];
    expect(sumRangeDays(far).toMap()).toEqual(
      new Map([
        [3, 2],
        [9_000_000, 5],
      ]),
    );
    expect(sumRangeDays([]).toMap()).toEqual(new Map());
    // the site (page 0) alone: the same sum for page 0, no other page
    const withSite = [
      {
        blob: day([
          [0, 0, 7],
          [3, 0, 2],
        ]),
        daysIn: 0,
      },
      {
        blob: day([
          [0, 1, 4],
          [0, 2, 1],
          [3, 0, 1],
        ]),
        daysIn: 1,
      },
    ];
    expect(sumRangeDays(withSite).toMap()).toEqual(
      new Map([
        [0, 8],
        [3, 3],
      ]),
    );
    expect(sumRangeDays(withSite, { pages: [0] }).toMap()).toEqual(new Map([[0, 8]]));
    expect(sumRangeDays(withSite, { pages: [3] }).toMap()).toEqual(new Map([[3, 3]]));
    expect(sumRangeDays(near, { pages: [0] }).toMap()).toEqual(new Map());
    expect(sumRangeDays(far, { pages: [2, 9_000_000] }).toMap()).toEqual(new Map([[9_000_000, 5]]));
    expect(sumRangeDays(near, { pages: [] }).toMap()).toEqual(new Map());
  });

  it('read unaligned blobs as aligned ones', () => {
    const blob = encodeGapCounts(
      new Map([
        [
          9,
          new Map([
            [0, 4],
            [2, 3],
          ]),
        ],
      ]),
    );
    const unaligned = Buffer.alloc(blob.length + 1).subarray(1);
    blob.copy(unaligned);
    for (const input of [blob, unaligned]) {
      for (const [daysIn, expected] of [
        [1, 7],
        [2, 4],
      ]) {
        const counts = new PageCounts();
        addRangeDay(input, daysIn, counts.add);
        expect(counts.get(9)).toBe(expected);
      }
    }
  });
});
