/**
 * npm run bench:streams — what idle job event streams cost the server.
 *
 * Opens 500 `text/event-stream` clients on an active job that writes nothing, lets them settle, then measures the
 * server process's CPU time (utime + stime from /proc) over a window: the share of one core it spends on them. Two
 * servers run in turn, identical but for how a stream learns of new events:
 *   - notifier: Scribe's own, one notifier per process (LISTEN/NOTIFY on PostgreSQL, one poll loop on SQLite);
 *   - per-stream polling: what it replaced, each stream reading the job every 250 ms (the same route, given a
 *     notifier that wakes every listener on its own 250 ms timer).
 * Flags: --streams N (default 500), --seconds N (measured window, default 10), --postgres (a throwaway PostgreSQL
 * database instead of a temporary SQLite file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createEmptyDatabase } from '../test/support/databases.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { parseDatabaseUrl } from '../src/db/database-url.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { addProject } from '../src/projects/projects.js';
import { createApiKey } from '../src/keys/api-keys.js';
import { createJob } from '../src/jobs/job-store.js';
import { createJobRequests } from '../src/jobs/job-requests.js';
import { createJobEventNotifier, type JobEventNotifier } from '../src/jobs/job-event-notifier.js';
import { createHttpApp } from '../src/http/app.js';
import { agentJobRoutes } from '../src/http/routes/agent-jobs.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROOT = path.resolve(import.meta.dirname, '..');
const MODES = ['notifier', 'per-stream polling'] as const;
type Mode = (typeof MODES)[number];

/** The old behaviour, as a notifier: every stream is woken every 250 ms and reads the job. */
const perStreamPolling: JobEventNotifier = {
  subscribe(_jobId, listener) {
    const timer = setInterval(listener, 250);
    return () => clearInterval(timer);
  },
  close: async () => undefined,
};

/** Child process: the agent-job routes on the given database, with the chosen notifier; prints its port. */
async function serve(mode: Mode, databaseUrl: string): Promise<void> {
  const config = { ...loadConfig({}), database: parseDatabaseUrl(databaseUrl) };
  const { db } = openDatabase(config.database);
  const logger = createLogger('silent');
  const ctx = {
    config,
    db,
    database: config.database,
    clock: () => new Date(),
    logger,
    secret: 'bench-secret-bench-secret-bench-secret-00',
  };
  const jobs = createJobRequests({ db, clock: ctx.clock, jobs: config.jobs, missing: [], wake: () => undefined });
  const events =
    mode === 'notifier' ? createJobEventNotifier({ db, database: config.database, logger }) : perStreamPolling;
  const app = createHttpApp({
    ctx,
    routes: [agentJobRoutes({ jobs, events })],
    webhooks: (_req, res) => void res.status(404).end(),
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks of 1/100 s on Linux
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(params: {
  mode: Mode;
  databaseUrl: string;
  url: (port: number) => string;
  key: string;
  streams: number;
  seconds: number;
}): Promise<number> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/streams.ts', '--serve', params.mode, params.databaseUrl],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on(
        'line',
        (line) => line.startsWith('port ') && resolve(Number(line.slice(5))),
      );
      child.once('exit', (code) => reject(new Error(`the ${params.mode} server exited (${code})`)));
    });
    const controller = new AbortController();
    // every stream is open and has replayed the log (its `created` event) before the window starts
    await Promise.all(
      Array.from({ length: params.streams }, async () => {
        const res = await fetch(params.url(port), {
          headers: { authorization: `Bearer ${params.key}`, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        const reader = res.body!.getReader();
        let text = '';
        while (!text.includes('event: created')) text += new TextDecoder().decode((await reader.read()).value);
        void (async () => {
          while (!(await reader.read().catch(() => ({ done: true }))).done);
        })();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const started = cpuSeconds(child.pid!);
    const wallStarted = process.hrtime.bigint();
    await new Promise((resolve) => setTimeout(resolve, params.seconds * 1000));
    const share = (cpuSeconds(child.pid!) - started) / (Number(process.hrtime.bigint() - wallStarted) / 1e9);
    controller.abort();
    return share;
  } finally {
    child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const streams = flag('--streams', 500);
  const seconds = flag('--seconds', 10);
  const provider = args.includes('--postgres') ? 'postgresql' : 'sqlite';
  const database = await createEmptyDatabase(provider);
  try {
    await migrateDatabase(database.target);
    const { db, close } = openDatabase(database.target);
    const clock = () => new Date();
    const project = await addProject({ db, clock, repository: 'acme/streams', ref: 'main' });
    const { key } = await createApiKey({ db, clock, projectId: project.id, scope: 'read' });
    const job = await createJob({
      db,
      clock,
      projectId: project.id,
      repository: 'acme/streams',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'Stay idle',
    });
    await close();
    console.log(
      `${streams} idle event streams on ${provider}, CPU measured over ${seconds} s after they settle (share of one core)`,
    );
    const shares = new Map<Mode, number>();
    for (const mode of MODES) {
      const share = await measure({
        mode,
        databaseUrl: database.target.url,
        url: (port) => `http://127.0.0.1:${port}/v2/agent/${project.id}/job/${job.id}/events`,
        key,
        streams,
        seconds,
      });
      shares.set(mode, share);
      console.log(`  ${mode.padEnd(20)} ${(share * 100).toFixed(2)} % of a core`);
    }
    const ratio = shares.get('per-stream polling')! / Math.max(shares.get('notifier')!, 0.0001);
    console.log(`  per-stream polling costs ${ratio.toFixed(0)}× the notifier`);
  } finally {
    await database.drop();
  }
}

if (args[0] === '--serve') {
  void serve(args[1] as Mode, args[2]);
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
