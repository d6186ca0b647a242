/** A loop that looks for queued work when woken and at every poll (see createPollingWorker). */
export interface PollingWorker {
  /** work was queued in this process: take a turn now rather than at the next poll */
  wake(): void;
  /** starts polling, with a first turn at once */
  start(): void;
  /** stops polling and waking, and waits for the turn in progress (work a turn started is the caller's to await) */
  stop(): Promise<void>;
  /** a turn is running */
  readonly turning: boolean;
}

/**
 * The wake/poll loop every lease-queue consumer runs (agent jobs, GitHub deliveries, outgoing webhooks), written once.
 * `turn` claims what it can and starts the work; it answers true when more may be waiting (a full batch), which runs
 * it again at once. One turn at a time: a wake during a turn runs one more turn right after it, since the running turn
 * may have read the queue before the change the wake announces (a wake is never lost until the next poll). A failed
 * turn is handed to `failed` and the loop carries on at the next wake or poll.
 */
export function createPollingWorker(params: {
  pollMs: number;
  turn: () => Promise<boolean | undefined>;
  failed: (err: unknown) => void;
}): PollingWorker {
  let running = false;
  let turning: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const loop = async () => {
    do {
      again = false;
      try {
        if (await params.turn()) again = true;
      } catch (err) {
        params.failed(err);
      }
    } while (again && running);
  };

  const wake = () => {
    if (!running) return;
    if (turning) {
      again = true;
      return;
    }
    turning = loop().finally(() => {
      turning = null;
      // a wake that came after the loop's last check but before this point would otherwise wait for the poll
      if (again) wake();
    });
  };

  const poll = () => {
    wake();
    timer = setTimeout(poll, params.pollMs);
    timer.unref();
  };

  return {
    wake,
    start() {
      if (running) return;
      running = true;
      poll();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await turning;
    },
    get turning() {
      return turning !== null;
    },
  };
}
