import { RoaringBitmap32 } from '../../src/analytics/store/day-sets.js';

/**
 * Random bitmaps of (page, visitor) pairs as a part's stored blob holds them, for readers that cut one page's
 * container out: 1 to 9 pages each (few enough that a bitmap with runs may have no offset header), each page an
 * array, a bitset or runs, every other round on pages above 40. Deterministic from `seed`.
 */
export function* pageBitmaps(seed: number, rounds: number) {
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n;
  };
  for (let round = 0; round < rounds; round++) {
    const bitmap = new RoaringBitmap32();
    const pages = [...new Set(Array.from({ length: 1 + random(9) }, () => random(round % 2 ? 40 : 65_536)))];
    for (const page of pages) {
      const base = page * 65536;
      const shape = random(3);
      if (shape === 0) for (let i = random(50); i >= 0; i--) bitmap.add(base + random(65536));
      else if (shape === 1) for (let i = 0; i < 6000; i++) bitmap.add(base + random(65536));
      else bitmap.addRange(base + random(1000), base + 1000 + random(60_000));
    }
    if (random(2)) bitmap.runOptimize();
    try {
      yield { bitmap, blob: Buffer.from(bitmap.serialize(true)), pages, random };
    } finally {
      bitmap.dispose();
    }
  }
}
