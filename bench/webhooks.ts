/**
 * tsx bench/webhooks.ts — outgoing webhooks under load: 10,000 job changes, each an event for 3 subscribers of one
 * project: a healthy receiver (answers 200 at once), a slow one (answers after --slow-ms) and a failing one (always
 * 500, so its deliveries back off). Events are made by creating jobs (the real change path, event in the same
 * transaction) at --rate per second while the notifier runs as main.ts runs it (poll 250 ms). Reports the healthy
 * receiver's latency from the change (the job's createdAt, the body's `timestamp`) to its first 2xx: p50/p95/p99/max,
 * and what the slow and failing subscriptions got meanwhile. Target: healthy p50 ≤ 1 s.
 * Half-way through, the notifier's process is killed with SIGKILL and another one started (as a supervisor would):
 * every event must still reach the healthy receiver, each under one webhook-id (a send the dead process had in hand
 * comes again, same id, once its lease ends). --no-kill runs without it.
 * Flags: --events N (10000), --rate N per second (20), --slow-ms N (2000), --provider sqlite|postgresql (sqlite).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createJob } from '../src/jobs/job-store.js';
import { eventPresenter } from '../src/http/present-event.js';
import { singleJobPresenter } from '../src/http/routes/present-jobs.js';
import { createNotifier } from '../src/notifications/notifier.js';
import { createSubscription } from '../src/notifications/subscriptions.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { createDatabase } from './bench-server.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const EVENTS = Number(arg('events', '10000'));
const RATE = Number(arg('rate', '20'));
const SLOW_MS = Number(arg('slow-ms', '2000'));
const PROVIDER = arg('provider', 'sqlite') as DatabaseTarget['provider'];
const KILL = !process.argv.includes('--no-kill');

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/**
 * A receiver answering `status` after `delayMs`; counts requests and, for 2xx, the latency from the change to the
 * first answer per webhook-id, and which webhook-ids each event (its type and job) came under.
 */
async function receiver(status: number, delayMs: number) {
  const stats = { requests: 0, latencies: [] as number[], repeats: 0, idsByEvent: {} as Record<string, string[]> };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      setTimeout(() => {
        res.writeHead(status).end();
        if (status < 300) {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
          const key = `${body.type} ${body.data.job.id}`;
          const id = String(req.headers['webhook-id']);
          const ids = (stats.idsByEvent[key] ??= []);
          if (ids.includes(id)) stats.repeats++;
          else {
            ids.push(id);
            stats.latencies.push(Date.now() - Date.parse(body.timestamp));
          }
        }
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, stats };
}

type Body = { type: string; timestamp: string; data: { job: { id: string } } };
type Stats = { requests: number; latencies: number[]; repeats: number; idsByEvent: Record<string, string[]> }[];

/**
 * The three receivers run in a child process, as real receivers run elsewhere: their work does not share the
 * notifier's event loop. The parent asks for their counts over IPC.
 */
async function receiversProcess(): Promise<{ urls: string[]; stats(): Promise<Stats>; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--receivers', '--slow-ms', String(SLOW_MS)], {
    execArgv: ['--import', 'tsx'],
  });
  const urls = await new Promise<string[]>((resolve) => child.once('message', (m) => resolve(m as string[])));
  return {
    urls,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as Stats));
        child.send('stats');
      }),
    close: () => child.kill(),
  };
}

if (process.argv.includes('--receivers')) {
  const all = await Promise.all([receiver(200, 0), receiver(200, SLOW_MS), receiver(500, 0)]);
  process.send?.(all.map((r) => r.url));
  process.on('message', () => process.send?.(all.map((r) => r.stats)));
}

/**
 * Scribe's side in its own process, as main.ts runs it (SQLite's writers and the notifier share one process): it makes
 * changes `from`..`to` on the run's schedule, says so, and keeps delivering until it is killed.
 */
async function scribeProcess(target: DatabaseTarget, from: number, to: number, started: number) {
  const child = fork(fileURLToPath(import.meta.url), ['--scribe', JSON.stringify({ target, from, to, started })], {
    execArgv: ['--import', 'tsx'],
  });
  const emitted = new Promise((resolve) => child.once('message', resolve));
  return { child, emitted };
}

if (process.argv.includes('--scribe')) {
  const { target, from, to, started } = JSON.parse(process.argv[process.argv.indexOf('--scribe') + 1]) as {
    target: DatabaseTarget;
    from: number;
    to: number;
    started: number;
  };
  const { db } = openDatabase(target);
  const config = loadConfig({});
  const clock = () => new Date();
  createNotifier({
    db,
    database: target,
    clock,
    logger: createLogger((process.env.BENCH_LOG as 'warn') ?? 'warn'),
    policy: { allowHttp: true, allowedHosts: ['127.0.0.1'] },
    render: eventPresenter({ config, presentJob: singleJobPresenter({ db, config }, null) }),
    leaseMs: config.jobs.leaseMs,
    heartbeatMs: config.jobs.heartbeatMs,
    pollMs: 250,
  }).start();
  for (let i = from; i < to; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await createJob({
      db,
      clock,
      projectId: 'prj_bench',
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: `Change ${i}`,
    });
  }
  process.send?.('emitted');
}

async function main() {
  const created = await createDatabase(PROVIDER, 'webhooks');
  await migrateDatabase(created.target);
  const { db, close } = openDatabase(created.target);
  const clock = () => new Date();
  const policy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
  const receivers = await receiversProcess();
  for (const url of receivers.urls)
    await createSubscription({ db, clock, policy }, { projectId: 'prj_bench', url, events: ['*'] });
  const started = Date.now();
  const half = KILL ? Math.floor(EVENTS / 2) : EVENTS;
  let scribe = await scribeProcess(created.target, 0, half, started);
  await scribe.emitted;
  let killedAt: number | null = null;
  if (KILL) {
    // killed while it delivers what it just made: some sends are in hand, some events not yet fanned out
    scribe.child.kill('SIGKILL');
    killedAt = (Date.now() - started) / 1000;
    scribe = await scribeProcess(created.target, half, EVENTS, started);
    await scribe.emitted;
  }
  const emittedS = (Date.now() - started) / 1000;
  // the dead process's leases end after SCRIBE_JOB_LEASE_SECONDS (30 s by default): what it held comes then
  const deadline = Date.now() + 120_000;
  let [healthy, slow, failing] = await receivers.stats();
  while (healthy.latencies.length < EVENTS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    [healthy, slow, failing] = await receivers.stats();
  }
  const drainedS = (Date.now() - started) / 1000;
  const lat = healthy.latencies;
  const events = Object.values(healthy.idsByEvent);
  const underTwoIds = events.filter((ids) => ids.length > 1).length;
  const failingTries = await db.webhookAttempt.count({ where: { responseStatus: 500 } });
  const failingPending = await db.webhookMessage.count({ where: { status: 'pending', attempts: { gt: 0 } } });
  const intact = events.length === EVENTS && underTwoIds === 0;
  console.log(
    [
      `outgoing webhooks on ${PROVIDER}: ${EVENTS} events at ${RATE}/s (emitted in ${emittedS.toFixed(1)} s), 3 subscribers`,
      `healthy: ${lat.length}/${EVENTS} delivered by ${drainedS.toFixed(1)} s; change → 2xx p50 ${quantile(lat, 0.5)} ms, p95 ${quantile(lat, 0.95)} ms, p99 ${quantile(lat, 0.99)} ms, max ${Math.max(...lat)} ms (target p50 ≤ 1000 ms: ${quantile(lat, 0.5) <= 1000 ? 'met' : 'MISSED'})`,
      killedAt === null
        ? 'notifier not killed (--no-kill)'
        : `notifier killed with SIGKILL at ${killedAt.toFixed(1)} s and restarted: ${events.length}/${EVENTS} events reached the healthy receiver, ${underTwoIds} under a second webhook-id, ${healthy.repeats} sent again under the same id (${intact ? 'none lost: met' : 'MISSED'})`,
      `slow (${SLOW_MS} ms per answer, at most 8 in flight): ${slow.latencies.length} delivered meanwhile, the rest queued`,
      `failing (500): ${failing.requests} tries (${failingTries} recorded), ${failingPending} deliveries backing off`,
    ].join('\n'),
  );
  scribe.child.kill();
  receivers.close();
  await close();
  await created.drop();
}

if (!process.argv.includes('--receivers') && !process.argv.includes('--scribe'))
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
