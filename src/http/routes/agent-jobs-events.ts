import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';
import { Invalid } from '../../errors.js';
import { findJobStatus, listEvents, type JobRecord } from '../../jobs/job-store.js';

const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;

function afterId(req: Request): number {
  const raw = req.get('last-event-id') ?? (typeof req.query.after === 'string' ? req.query.after : undefined);
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw)) throw new Invalid('Invalid query', [{ message: 'after (or Last-Event-ID) must be an event id' }]);
  return Number(raw);
}

/**
 * The job's step log: JSON by default; with `Accept: text/event-stream`, a live stream that replays the log and
 * follows it until the job leaves `active`. The stream reads the database, not process memory, so it is live
 * whichever Scribe process runs the job.
 */
export async function sendJobEvents(params: { ctx: AppContext; req: Request; res: Response; job: JobRecord; shutdown?: AbortSignal }): Promise<void> {
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
  let wake = () => {};
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
    if (Date.now() - lastWrite > KEEPALIVE_MS) {
      res.write(': keep-alive\n\n');
      lastWrite = Date.now();
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  shutdown?.removeEventListener('abort', onShutdown);
  res.end();
}
