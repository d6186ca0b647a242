import { mapConcurrent } from '../../src/agent/map-concurrent.js';

describe('mapConcurrent', () => {
  it('keeps the order of the input and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrent([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
    expect(await mapConcurrent([], 4, async (n: number) => n)).toEqual([]);
  });
});
