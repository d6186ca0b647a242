import { expect, jest } from '@jest/globals';
import { IDLE_CONNECTION_MS } from '../../src/db/connection-pool.js';

/**
 * Checks a PostgreSQL pool's idle rule through `backend` (the server process id answering a query on it), the pool's
 * timers faked: the same process answers after a minute idle (pg's default closes it after ten seconds), a new one
 * after IDLE_CONNECTION_MS. `close` ends the pool.
 */
export async function expectIdleConnectionKept(backend: () => Promise<number>, close: () => Promise<void>) {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    const first = await backend();
    jest.advanceTimersByTime(60_000);
    expect(await backend()).toBe(first);
    jest.advanceTimersByTime(IDLE_CONNECTION_MS + 1);
    expect(await backend()).not.toBe(first);
  } finally {
    jest.useRealTimers();
    await close();
  }
}
