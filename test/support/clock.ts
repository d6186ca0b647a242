import type { Clock } from '../../src/clock.js';

/** A clock that stands still at `start` until a test sets or advances it. */
export interface TestClock extends Clock {
  set(at: string | Date): void;
  advance(ms: number): void;
}

export function fixedClock(start: string = '2026-11-22T00:00:00.000Z'): TestClock {
  let now = new Date(start);
  const clock = (() => new Date(now)) as TestClock;
  clock.set = (at) => {
    now = new Date(at);
  };
  clock.advance = (ms) => {
    now = new Date(now.getTime() + ms);
  };
  return clock;
}
