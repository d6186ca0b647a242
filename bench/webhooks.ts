/**
 * tsx bench/webhooks.ts — outgoing webhooks under load: 10,000 job changes, each an event for 3 subscribers of one
 * project: a healthy receiver (answers 200 at once), a slow one (answers after --slow-ms) and a failing one (always
 * 500, so its deliveries back off). Events are made by creating jobs (the real change path, event in the same
 * transaction) at --rate per second while the notifier runs as main.ts runs it (poll 250 ms). Reports the healthy
 * receiver's latency from the change (the job's createdAt, the body's `timestamp`) to its 2xx: p50/p95/p99/max, and
 * what the slow and failing subscriptions got meanwhile. Target: healthy p50 ≤ 1 s.
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

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** A receiver answering `status` after `delayMs`; counts requests and, for 2xx, the latency from the change. */
async function receiver(status: number, delayMs: number) {
  const stats = { requests: 0, latencies: [] as number[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      setTimeout(() => {
        res.writeHead(status).end();
        if (status < 300) {
          const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
          stats.latencies.push(Date.now() - Date.parse(timestamp));
        }
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, stats };
}

type Stats = { requests: number; latencies: number[] }[];

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

async function main() {
  const created = await createDatabase(PROVIDER, 'webhooks');
  await migrateDatabase(created.target);
  const { db, close } = openDatabase(created.target);
  const clock = () => new Date();
  const policy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
  const receivers = await receiversProcess();
  const projectId = 'prj_bench';
  for (const url of receivers.urls) await createSubscription({ db, clock, policy }, { projectId, url, events: ['*'] });
  const config = loadConfig({});
  const notifier = createNotifier({
    db,
    database: created.target,
    clock,
    logger: createLogger((process.env.BENCH_LOG as 'warn') ?? 'warn'),
    policy,
    render: eventPresenter({ config, presentJob: singleJobPresenter({ db, config }, null) }),
    leaseMs: config.jobs.leaseMs,
    heartbeatMs: config.jobs.heartbeatMs,
    pollMs: 250,
  });
  notifier.start();
  const started = Date.now();
  for (let i = 0; i < EVENTS; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await createJob({
      db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: `Change ${i}`,
    });
  }
  const emittedS = (Date.now() - started) / 1000;
  const deadline = Date.now() + 120_000;
  let [healthy, slow, failing] = await receivers.stats();
  while (healthy.latencies.length < EVENTS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    [healthy, slow, failing] = await receivers.stats();
  }
  const drainedS = (Date.now() - started) / 1000;
  const lat = healthy.latencies;
  const failingTries = await db.webhookAttempt.count({ where: { responseStatus: 500 } });
  const failingPending = await db.webhookMessage.count({ where: { status: 'pending', attempts: { gt: 0 } } });
  console.log(
    [
      `outgoing webhooks on ${PROVIDER}: ${EVENTS} events at ${RATE}/s (emitted in ${emittedS.toFixed(1)} s), 3 subscribers`,
      `healthy: ${lat.length}/${EVENTS} delivered by ${drainedS.toFixed(1)} s; change → 2xx p50 ${quantile(lat, 0.5)} ms, p95 ${quantile(lat, 0.95)} ms, p99 ${quantile(lat, 0.99)} ms, max ${Math.max(...lat)} ms (target p50 ≤ 1000 ms: ${quantile(lat, 0.5) <= 1000 ? 'met' : 'MISSED'})`,
      `slow (${SLOW_MS} ms per answer, at most 8 in flight): ${slow.latencies.length} delivered meanwhile, the rest queued`,
      `failing (500): ${failing.requests} tries (${failingTries} recorded), ${failingPending} deliveries backing off`,
    ].join('\n'),
  );
  await notifier.stop();
  receivers.close();
  await close();
  await created.drop();
}

if (!process.argv.includes('--receivers'))
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
