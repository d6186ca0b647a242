import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseTarget } from '../../db/database-url.js';
import { foldEvents } from './fold-events.js';
import { openSql } from './sql.js';

/** The fold thread's own side (see fold-thread.ts): folds on 'fold', answers how many events it read; ends on 'close'. */
const port = parentPort!;
const sql = openSql((workerData as { target: DatabaseTarget }).target);
port.on('message', (message: 'fold' | 'close') => {
  if (message === 'close') {
    sql.close().finally(() => port.close());
    return;
  }
  foldEvents(sql).then(
    (folded) => port.postMessage({ folded }),
    // a driver's error class does not survive the copy to the other thread: its message and code do
    (error: unknown) =>
      port.postMessage({
        error: {
          message: error instanceof Error ? error.message : String(error),
          code: (error as { code?: unknown })?.code,
        },
      }),
  );
});
