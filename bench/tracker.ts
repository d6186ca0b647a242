/**
 * Browser tracker benchmark (not a test): `POST /api/event` with 200 concurrent keep-alive clients on loopback, for a
 * bounded time and count, on SQLite and PostgreSQL — through the group commit (the default) and through the path
 * before it (SCRIBE_TRACKER_COMMIT_EVENTS=1: one project lookup and one transaction per event), in the same run.
 * After a 1 s warm-up, prints accepted events/s, p50/p99 latency, and checks that the events stored equal the 202s
 * received (warm-up included).
 *   npm run bench:tracker
 *   npm run bench:tracker -- --seconds 10 --clients 200 --providers sqlite
 */
import http from 'node:http';
import os from 'node:os';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { addProject } from '../src/projects/projects.js';
import { openSql } from '../src/analytics/store/sql.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { createDatabase, startServer } from './bench-server.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const PROVIDERS = arg('providers', 'sqlite,postgresql').split(',') as DatabaseTarget['provider'][];
const SECONDS = Number(arg('seconds', '10'));
const CLIENTS = Number(arg('clients', '200'));
const WARM_UP_SECONDS = 1;
/** upper bound on the requests of one measurement, whatever the speed */
const MAX_REQUESTS = Number(arg('max-requests', '200000'));

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];

/** CLIENTS loops each sending one event at a time over its own keep-alive connection, until time or count is up. */
async function load(
  url: string,
  projectId: string,
  seconds: number,
  first = 0,
): Promise<{ accepted: number; other: number; seconds: number; sent: number; latencies: Float64Array }> {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let sent = first;
  let accepted = 0;
  let other = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const post = (body: string, ua: string, ip: number) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: '/api/event',
          headers: {
            'content-type': 'text/plain;charset=UTF-8',
            'user-agent': ua,
            'x-bench-ip': `10.0.${ip >> 8}.${ip & 255}`,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const client = async (c: number) => {
    while (performance.now() < deadline && sent - first < MAX_REQUESTS) {
      const n = sent++;
      const body = JSON.stringify({
        projectId,
        url: `https://docs.example.com/docs/page-${n % 500}`,
        referrer: n % 7 ? null : 'https://www.google.com/',
      });
      const t = performance.now();
      const status = await post(body, BROWSERS[n % BROWSERS.length], (c * 97 + n) % 65536);
      latencies.push(performance.now() - t);
      if (status === 202) accepted++;
      else other++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { accepted, other, seconds: elapsed, sent, latencies: Float64Array.from(latencies).sort() };
}

async function measure(provider: DatabaseTarget['provider'], path: 'group commit' | 'one per event') {
  const { target, drop } = await createDatabase(provider, `tracker_${path === 'group commit' ? 'g' : 'o'}`);
  try {
    await migrateDatabase(target);
    const database = openDatabase(target);
    const project = await addProject({
      db: database.db,
      clock: () => new Date(),
      repository: `bench/tracker-${provider}`,
      ref: 'main',
      hostnames: ['docs.example.com'],
    });
    await database.close();
    const env = {
      SCRIBE_TRUSTED_PROXY_HEADER: 'x-bench-ip',
      ...(path === 'one per event' ? { SCRIBE_TRACKER_COMMIT_EVENTS: '1' } : {}),
    };
    const { child, url } = await startServer(target, env);
    let result: Awaited<ReturnType<typeof load>>;
    let warmUp: Awaited<ReturnType<typeof load>>;
    try {
      // not measured: the server compiles its modules and the JIT warms up on the first requests
      warmUp = await load(url, project.id, WARM_UP_SECONDS);
      result = await load(url, project.id, SECONDS, warmUp.sent);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    const sql = openSql(target);
    const [{ n }] = await sql.query<{ n: number }>(
      'SELECT COUNT(*) AS "n" FROM "AnalyticsEvent" WHERE "projectId" = ?',
      [project.id],
    );
    await sql.close();
    const stored = Number(n);
    const row = {
      provider,
      path,
      perSecond: Math.round(result.accepted / result.seconds),
      p50: pct(result.latencies, 0.5),
      p99: pct(result.latencies, 0.99),
      accepted: result.accepted,
      other: result.other + warmUp.other,
      stored: stored - warmUp.accepted,
    };
    console.error(
      `[${provider} ${path}] ${row.perSecond} events/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, 202s ${row.accepted}, other ${row.other}, stored ${row.stored} (+${warmUp.accepted} of the warm-up)`,
    );
    return row;
  } finally {
    await drop();
  }
}

const loadBefore = os.loadavg();
const rows = [];
for (const provider of PROVIDERS) {
  const grouped = await measure(provider, 'group commit');
  const single = await measure(provider, 'one per event');
  rows.push({ ...grouped, ratio: grouped.perSecond / single.perSecond }, { ...single, ratio: 1 });
}
const loadAfter = os.loadavg();

console.log(
  `\n${CLIENTS} concurrent clients, ${SECONDS} s per measurement, ${os.cpus().length} cores; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(
  '| database | path | accepted events/s | ÷ one per event | p50 ms | p99 ms | 202s | other answers | stored = 202s |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.provider} | ${r.path} | ${r.perSecond.toLocaleString('en')} | ${r.ratio.toFixed(1)}× | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.accepted} | ${r.other} | ${r.stored === r.accepted ? 'yes' : `NO (${r.stored})`} |`,
  );
}
if (rows.some((r) => r.stored !== r.accepted || r.other)) process.exitCode = 1;
