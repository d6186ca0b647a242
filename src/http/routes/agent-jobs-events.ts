import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';
import { Invalid } from '../../errors.js';
import { findJobStatus, listEvents, MAX_EVENT_ID, type JobRecord } from '../../jobs/job-store.js';
import type { JobEventNotifier } from '../../jobs/job-event-notifier.js';

/** An idle stream sends a comment this often, and reads the job once more in case a notification went missing. */
const KEEPALIVE_MS = 15_000;

/** The largest cursor accepted: the largest signed 64-bit id, the range of the event id column. */
const MAX_CURSOR = 9_223_372_036_854_775_807n;

function afterId(req: Request): number {
  const raw = req.get('last-event-id') ?? (typeof req.query.after === 'string' ? req.query.after : undefined);
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw) || BigInt(raw) > MAX_CURSOR) {
    throw new Invalid('Invalid query', [
      { message: `after (or Last-Event-ID) must be an event id: an integer from 0 to ${MAX_CURSOR}` },
    ]);
  }
  // Capped where JSON numbers stop being exact (see MAX_EVENT_ID): no id is handed out past it.
  return Math.min(Number(raw), MAX_EVENT_ID);
}

/**
 * The job's step log: JSON by default; with `Accept: text/event-stream`, a live stream that replays the log and
 * follows it until the job leaves `active`. The stream reads the database, not process memory, so it is live
 * whichever Scribe process runs the job; it reads only when the process's notifier says the job has new events.
 */
export async function sendJobEvents(params: {
  ctx: AppContext;
  req: Request;
  res: Response;
  job: JobRecord;
  events: JobEventNotifier;
  shutdown?: AbortSignal;
}): Promise<void> {
  const { ctx, req, res, job, shutdown } = params;
  let after = afterId(req);
  const wantsStream = (req.get('accept') ?? '').includes('text/event-stream');
  if (!wantsStream) {
    const events = await listEvents({ db: ctx.db, jobId: job.id, afterId: after });
    res.json({ status: job.status, events });
    return;
  }
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let closed = false;
  // a notification that arrives while the stream is reading is kept, so the next wait returns at once
  let pending = false;
  let wake = () => {
    pending = true;
  };
  const unsubscribe = params.events.subscribe(job.id, () => wake());
  req.on('close', () => {
    closed = true;
    wake();
  });
  // At shutdown the stream just ends (the job may still be active); a client reconnects with Last-Event-ID.
  const onShutdown = () => {
    closed = true;
    wake();
  };
  shutdown?.addEventListener('abort', onShutdown);
  if (shutdown?.aborted) closed = true;
  try {
    let lastWrite = Date.now();
    while (!closed) {
      const events = await listEvents({ db: ctx.db, jobId: job.id, afterId: after });
      for (const event of events) {
        res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        after = event.id;
        lastWrite = Date.now();
      }
      const status = await findJobStatus(ctx.db, job.id);
      // Read events once more after seeing a final status, so the last events of the run are never cut off.
      if (status !== 'active') {
        for (const event of await listEvents({ db: ctx.db, jobId: job.id, afterId: after })) {
          res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        }
        res.write(`event: end\ndata: ${JSON.stringify({ status })}\n\n`);
        break;
      }
      if (Date.now() - lastWrite >= KEEPALIVE_MS) {
        res.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
      if (pending || closed) {
        pending = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, KEEPALIVE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {
        pending = true;
      };
    }
  } finally {
    unsubscribe();
    shutdown?.removeEventListener('abort', onShutdown);
  }
  res.end();
}
