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
    const leases = [cache.lease(), cache.lease(), cache.lease()];
    const asked = leases.map((lease) => lease.keep('p:days:1:7', 'v1', build));
    await new Promise((resolve) => setImmediate(resolve));
    expect(builds).toBe(1);
    finish();
    const answers = await Promise.all(asked);
    expect(answers.map((a) => a.n)).toEqual([1, 1, 1]);
    expect(new Set(answers).size).toBe(1);
    // another version of the days is another entry
    expect((await leases[0].keep('p:days:1:7', 'v2', build)).n).toBe(2);
    for (const lease of leases) lease.release();
  });

  it('lets a waiting reader build for itself when the first build fails', async () => {
    const cache = new DayCache(1 << 20);
    const lease = cache.lease();
    let calls = 0;
    const failing = lease.keep('k', 'v', async () => {
      calls++;
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('read failed');
    });
    const waiting = lease.keep('k', 'v', async () => {
      calls++;
      return { bytes: 1 };
    });
    await expect(failing).rejects.toThrow('read failed');
    await expect(waiting).resolves.toEqual({ bytes: 1 });
    expect(calls).toBe(2);
    lease.release();
  });
});
