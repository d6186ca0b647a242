import { DayCache, type Cached } from '../../../src/analytics/store/day-cache.js';

describe('DayCache', () => {
  it('builds an entry once for readers asking at the same time, and again for another version', async () => {
    const cache = new DayCache(1 << 20);
    let builds = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const build = async (): Promise<Cached & { n: number }> => {
      builds++;
      await gate;
      return { bytes: 8, n: builds };
    };
    const asked = [1, 2, 3].map(() => cache.keep('p:days:1:7', 'v1', build));
    await new Promise((resolve) => setImmediate(resolve));
    expect(builds).toBe(1);
    finish();
    const answers = await Promise.all(asked);
    expect(answers.map((a) => a.n)).toEqual([1, 1, 1]);
    expect(new Set(answers).size).toBe(1);
    // another version of the days is another entry
    expect((await cache.keep('p:days:1:7', 'v2', build)).n).toBe(2);
  });

  it('lets a waiting reader build for itself when the first build fails', async () => {
    const cache = new DayCache(1 << 20);
    let calls = 0;
    const failing = cache.keep('k', 'v', async () => {
      calls++;
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('read failed');
    });
    const waiting = cache.keep('k', 'v', async () => {
      calls++;
      return { bytes: 1 };
    });
    await expect(failing).rejects.toThrow('read failed');
    await expect(waiting).resolves.toEqual({ bytes: 1 });
    expect(calls).toBe(2);
  });
});

describe('DayCache within its budget', () => {
  it('hands an entry larger than the whole budget to its reader without keeping it, and drops the least used first', async () => {
    const cache = new DayCache(100);
    let builds = 0;
    const build = (bytes: number) => async () => ({ bytes, n: ++builds });
    expect((await cache.keep('huge', 'v', build(500))).n).toBe(1);
    expect(cache.get('huge', 'v')).toBeUndefined();
    await cache.keep('a', 'v', build(40));
    await cache.keep('b', 'v', build(40));
    cache.get('a', 'v');
    await cache.keep('c', 'v', build(40));
    expect(cache.get('a', 'v')).toBeDefined();
    expect(cache.get('b', 'v')).toBeUndefined();
    expect(cache.bytes).toBe(80);
  });
});

describe('DayCache turned off', () => {
  it('keeps nothing with a budget of 0 (SCRIBE_ANALYTICS_CACHE_MB=0), building each entry when asked', async () => {
    const cache = new DayCache(0);
    let builds = 0;
    const build = async () => ({ bytes: 0, n: ++builds });
    expect((await cache.keep('k', 'v', build)).n).toBe(1);
    expect((await cache.keep('k', 'v', build)).n).toBe(2);
    expect(cache.get('k', 'v')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
