/**
 * Runs a task one at a time, coalescing the calls that wait: a call made while a run is under way gets the next run,
 * which starts after that one ends (so it covers whatever the caller did before calling), and every call made before
 * the next run starts shares it. Queuing one run per call instead makes a caller behind a long run wait for every
 * run queued before its own, each finding nothing left to do.
 */
export class CoalescedRuns<T> {
  private last: Promise<unknown> = Promise.resolve();
  private next: Promise<T> | undefined;

  constructor(private readonly task: () => Promise<T>) {}

  run(): Promise<T> {
    if (this.next) return this.next;
    const run = this.last.then(() => {
      this.next = undefined;
      return this.task();
    });
    this.next = run;
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Settles (never rejects) once the run under way and the one waiting, if any, have ended. */
  settled(): Promise<unknown> {
    return this.last;
  }
}
