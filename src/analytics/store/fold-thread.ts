import { Worker } from 'node:worker_threads';
import type { DatabaseTarget } from '../../db/database-url.js';

/**
 * The fold on a worker thread with a connection of its own: deriving a chunk (decoding, uniting and encoding bitmaps
 * and page rows) is CPU work that held up the event loop parsing and hashing the next batches, a sixth of the server's
 * time while ingesting 10M views. One fold at a time: the caller coalesces its calls (CoalescedRuns). The thread starts
 * at the first fold and stays until close.
 */
export class FoldThread {
  private worker: Worker | undefined;
  private pending: { resolve: (folded: number) => void; reject: (err: unknown) => void } | undefined;

  constructor(private readonly target: DatabaseTarget) {}

  /** Folds every stored event (store/fold-events.ts) on the thread; how many events it read. */
  fold(): Promise<number> {
    if (this.pending) return Promise.reject(new Error('a fold is running on this thread already'));
    const worker = (this.worker ??= this.start());
    return new Promise<number>((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.postMessage('fold');
    });
  }

  /** Waits for a running fold, then closes the thread's connection and stops it. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }

  private start(): Worker {
    // the sibling module of this one, compiled (.js) or, under tsx and the tests, TypeScript loaded through tsx
    const entry = new URL(import.meta.url.replace(/fold-thread\.(ts|js)$/, 'fold-thread-main.$1'));
    const code = entry.pathname.endsWith('.ts')
      ? `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`
      : `import(${JSON.stringify(entry.href)})`;
    const worker = new Worker(code, { eval: true, workerData: { target: this.target } });
    worker.on('message', (reply: { folded: number } | { error: { message: string; code: unknown } }) => {
      const pending = this.pending;
      this.pending = undefined;
      if ('folded' in reply) pending?.resolve(reply.folded);
      else pending?.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    });
    const lost = (err: unknown) => {
      if (this.worker === worker) this.worker = undefined;
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(err);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the fold thread exited (code ${code})`)));
    return worker;
  }
}
