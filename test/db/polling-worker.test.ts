import { createPollingWorker } from '../../src/db/polling-worker.js';
import { waitFor } from '../support/wait-for.js';

/** A turn the test ends by hand, so it can wake the worker while one runs. */
function gatedTurns() {
  const started: number[] = [];
  const gates: (() => void)[] = [];
  let n = 0;
  const turn = () => {
    started.push(++n);
    return new Promise<undefined>((resolve) => gates.push(() => resolve(undefined)));
  };
  const finish = async (count: number) => {
    await waitFor(() => gates.length >= count, `turn ${count}`);
    gates[count - 1]();
  };
  return { turn, started, finish };
}

const LONG = 60_000;

describe('createPollingWorker', () => {
  it('takes a turn at start, and another right after the running one when woken during it', async () => {
    const t = gatedTurns();
    const worker = createPollingWorker({ pollMs: LONG, turn: t.turn, failed: () => undefined });
    worker.start();
    expect(t.started).toEqual([1]);
    worker.wake();
    worker.wake();
    expect(t.started).toEqual([1]);
    await t.finish(1);
    // the wakes came during turn 1, which may have read the queue before their change: one more turn
    await waitFor(() => t.started.length === 2, 'the second turn');
    await t.finish(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.started).toEqual([1, 2]);
    await worker.stop();
  });

  it('takes another turn when a wake arrives as the last turn ends, before the loop has let go', async () => {
    let n = 0;
    let worker: ReturnType<typeof createPollingWorker> | undefined;
    const turn = async () => {
      n++;
      // the wake lands after the turn's answer, while the loop is still winding down
      if (n === 1) queueMicrotask(() => queueMicrotask(() => worker?.wake()));
      return undefined;
    };
    worker = createPollingWorker({ pollMs: LONG, turn, failed: () => undefined });
    worker.start();
    await waitFor(() => n === 2, 'the turn the late wake asked for', 1_000);
    await worker.stop();
  });

  it('turns again at once while a turn says more may be waiting, and at every poll', async () => {
    let n = 0;
    const worker = createPollingWorker({ pollMs: 30, turn: async () => ++n < 3, failed: () => undefined });
    worker.start();
    await waitFor(() => n >= 3, 'three turns back to back');
    await waitFor(() => n >= 5, 'turns at the poll');
    await worker.stop();
  });

  it('stop waits for the running turn and no turn starts after it', async () => {
    const t = gatedTurns();
    const worker = createPollingWorker({ pollMs: 10, turn: t.turn, failed: () => undefined });
    worker.start();
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stopped).toBe(false);
    expect(worker.turning).toBe(true);
    await t.finish(1);
    await stopping;
    expect(worker.turning).toBe(false);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(t.started).toEqual([1]);
  });

  it('reports a failed turn and keeps going at the next wake and poll', async () => {
    const failures: unknown[] = [];
    let n = 0;
    const worker = createPollingWorker({
      pollMs: 20,
      turn: async () => {
        n++;
        if (n <= 2) throw new Error(`database down ${n}`);
        return undefined;
      },
      failed: (err) => failures.push(err),
    });
    worker.start();
    await waitFor(() => n >= 4, 'turns after the failures');
    expect(failures.map((e) => (e as Error).message)).toEqual(['database down 1', 'database down 2']);
    await worker.stop();
  });
});
