import { CoalescedRuns } from '../../src/analytics/coalesced-runs.js';

/** A task whose runs end when the test says, recording how many ran and how many at once. */
function controlledTask() {
  const pending: { resolve: (n: number) => void; reject: (err: Error) => void }[] = [];
  let started = 0;
  let running = 0;
  let mostAtOnce = 0;
  const task = () =>
    new Promise<number>((resolve, reject) => {
      started++;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      const done = () => running--;
      pending.push({
        resolve: (n) => {
          done();
          resolve(n);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      });
    });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return {
    task,
    tick,
    get started() {
      return started;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
    /** ends the oldest run still going */
    finish: async (n: number) => {
      pending.shift()!.resolve(n);
      await tick();
    },
    fail: async (message: string) => {
      pending.shift()!.reject(new Error(message));
      await tick();
    },
  };
}

describe('CoalescedRuns', () => {
  it('starts a run at once when idle, and the calls made while it runs share the one after it', async () => {
    const t = controlledTask();
    const runs = new CoalescedRuns(t.task);
    const first = runs.run();
    await t.tick();
    expect(t.started).toBe(1);
    const waiting = Array.from({ length: 20 }, () => runs.run());
    expect(new Set(waiting).size).toBe(1);
    expect(waiting[0]).not.toBe(first);
    expect(t.started).toBe(1);
    await t.finish(1);
    await expect(first).resolves.toBe(1);
    // the waiting run started only once the first ended, and a call now gets the run after it
    expect(t.started).toBe(2);
    const later = runs.run();
    expect(later).not.toBe(waiting[0]);
    await t.finish(2);
    await expect(Promise.all(waiting)).resolves.toEqual(Array(20).fill(2));
    await t.finish(3);
    await expect(later).resolves.toBe(3);
    expect(t.started).toBe(3);
    expect(t.mostAtOnce).toBe(1);
  });

  it("passes a run's failure to its callers only; the next run still happens and settled() never rejects", async () => {
    const t = controlledTask();
    const runs = new CoalescedRuns(t.task);
    const failing = runs.run();
    await t.tick();
    const next = runs.run();
    await t.fail('ClickHouse is down');
    await expect(failing).rejects.toThrow('ClickHouse is down');
    expect(t.started).toBe(2);
    await t.finish(7);
    await expect(next).resolves.toBe(7);
    const again = runs.run();
    await t.tick();
    await t.fail('down again');
    await expect(again).rejects.toThrow('down again');
    await expect(runs.settled()).resolves.toBeUndefined();
  });
});
