/**
 * npm run bench:agent — agent jobs end to end with a model that answers instantly.
 *
 * 1. Overhead: time from POST /job to a prLink on a repository of 2,000 Markdown files, beside the floor of doing
 *    the same change by hand with git (shallow clone + commit + push over the same smart-HTTP host).
 * 2. Throughput: 20 jobs submitted at once at concurrency 2 and 4 (all must complete), with the Scribe process's
 *    peak resident memory (VmHWM).
 *
 * Everything is local: the GitHub Enterprise and Anthropic stand-ins of test/support, a real Scribe process on a
 * temporary SQLite database. Flags: --runs N (overhead samples, default 5), --jobs N (default 20),
 * --poll-ms N (how often the client polls a job, default 50), --github-throttle (keep Octokit's write pacing on: one new pull request per 3 s per installation), --postgres
 * (a throwaway PostgreSQL database instead of SQLite), --overhead-only (skip part 2).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startGitHubHost, type GitHubHost } from '../test/support/github-host.js';
import { startAnthropicStandIn, edit, text } from '../test/support/anthropic-server.js';
import { scribeEnv, startScribeProcess, type ScribeProcess } from '../test/support/scribe-process.js';
import { createEmptyDatabase } from '../test/support/databases.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { addProject } from '../src/projects/projects.js';
import { createApiKey } from '../src/keys/api-keys.js';

const run = promisify(execFile);
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = flag('--runs', 5);
const JOBS = flag('--jobs', 20);
const ONLY_OVERHEAD = args.includes('--overhead-only');
const THROTTLE = args.includes('--github-throttle');
const PROVIDER = args.includes('--postgres') ? 'postgresql' : 'sqlite';
const POLL_MS = flag('--poll-ms', 50);
const FILES = 2000;
const REPO = 'acme/big-docs';
const INSTALLATION = 5;

function docsFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const pages: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const page = `docs/s${Math.floor(i / 100)}/page-${i}`;
    pages.push(page);
    files[`${page}.md`] =
      `# Page ${i}\n\n${'Scribe keeps documentation current. '.repeat(20)}\n\nSee [the next page](/docs/s${Math.floor((i + 1) / 100)}/page-${(i + 1) % FILES}).\n`;
  }
  files['docs.json'] = `${JSON.stringify({ name: 'Bench', navigation: [{ group: 'All', pages }] })}\n`;
  return files;
}

const pageOf = (n: number) => `docs/s${Math.floor(n / 100)}/page-${n}.md`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (n: number) => `${n.toFixed(0)} ms`;

const floorPhases: Record<string, number>[] = [];

async function gitFloor(host: GitHubHost, token: string, n: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-floor-'));
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  const auth = ['-c', `http.extraHeader=Authorization: Basic ${basic}`];
  const env = { PATH: process.env.PATH ?? '', HOME: dir, GIT_TERMINAL_PROMPT: '0' };
  const started = performance.now();
  await run(
    'git',
    [
      ...auth,
      'clone',
      '-q',
      '--depth',
      '1',
      '--single-branch',
      '--branch',
      'main',
      `${host.url}/${REPO}.git`,
      `${dir}/w`,
    ],
    { env },
  );
  const cloned = performance.now();
  const file = path.join(dir, 'w', pageOf(n));
  fs.appendFileSync(file, `\nFloor edit ${n}.\n`);
  await run(
    'git',
    [
      '-C',
      `${dir}/w`,
      '-c',
      'user.name=floor',
      '-c',
      'user.email=floor@example.com',
      'commit',
      '-q',
      '-am',
      `floor ${n}`,
    ],
    { env },
  );
  const committed = performance.now();
  await run('git', [...auth, '-C', `${dir}/w`, 'push', '-q', 'origin', `HEAD:refs/heads/floor-${n}`], { env });
  const elapsed = performance.now() - started;
  floorPhases.push({ clone: cloned - started, commit: committed - cloned, push: elapsed - (committed - started) });
  fs.rmSync(dir, { recursive: true, force: true });
  return elapsed;
}

interface Api {
  scribe: ScribeProcess;
  projectId: string;
  key: string;
}

async function submit(api: Api, n: number): Promise<string> {
  const res = await fetch(`${api.scribe.url}/v2/agent/${api.projectId}/job`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: `[bench-${n}] Add a closing line to page ${n}` }),
  });
  if (res.status !== 201) throw new Error(`POST /job answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

interface JobView {
  id: string;
  status: string;
  prLink: string | null;
  error: string | null;
}

/** One job, polled every POLL_MS: a latency-minded client that still leaves the server (and git) the CPU. */
async function waitDone(api: Api, id: string): Promise<JobView> {
  for (;;) {
    const res = await fetch(`${api.scribe.url}/v2/agent/${api.projectId}/job/${id}`, {
      headers: { authorization: `Bearer ${api.key}` },
    });
    const job = (await res.json()) as JobView;
    if (job.status !== 'active') return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Many jobs, polled as one list every 100 ms, so polling does not compete with the jobs for the server. */
async function waitAllDone(api: Api, ids: string[]): Promise<JobView[]> {
  const wanted = new Set(ids);
  for (;;) {
    const res = await fetch(`${api.scribe.url}/v2/agent/${api.projectId}/jobs?limit=100`, {
      headers: { authorization: `Bearer ${api.key}` },
    });
    const jobs = ((await res.json()) as { jobs: JobView[] }).jobs.filter((j) => wanted.has(j.id));
    if (jobs.length === ids.length && jobs.every((j) => j.status !== 'active')) return jobs;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface StepEvent {
  type: string;
  stage?: string;
  createdAt: string;
}

/** Where one job's time went, from its own step log: milliseconds per phase. */
async function breakdown(api: Api, id: string): Promise<Record<string, number>> {
  const res = await fetch(`${api.scribe.url}/v2/agent/${api.projectId}/job/${id}/events`, {
    headers: { authorization: `Bearer ${api.key}` },
  });
  const events = ((await res.json()) as { events: StepEvent[] }).events;
  const at = (match: (e: StepEvent) => boolean) => Date.parse(events.find(match)!.createdAt);
  const stage = (name: string) => at((e) => e.type === 'stage' && e.stage === name);
  const ends = at((e) => e.type === 'completed');
  return {
    claim: at((e) => e.type === 'run_started') - at((e) => e.type === 'created'),
    'github (token checks)': stage('clone') - stage('github'),
    'clone (token + git clone)': stage('agent') - stage('clone'),
    'agent (model turns, tools, edit checks)': stage('commit') - stage('agent'),
    commit: stage('push') - stage('commit'),
    'push (token + git push)': stage('pull_request') - stage('push'),
    'pull request + finish': ends - stage('pull_request'),
  };
}

/** Peak (VmHWM) or current (VmRSS) resident memory of a process, in MB. */
function rssMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

async function main(): Promise<void> {
  const host = await startGitHubHost();
  const anthropic = await startAnthropicStandIn();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-bench-'));
  const database = await createEmptyDatabase(PROVIDER);
  await migrateDatabase(database.target);
  const { db, close } = openDatabase(database.target);
  host.createRepository(REPO, docsFiles());
  host.addInstallation(INSTALLATION, [REPO]);
  const project = await addProject({
    db,
    clock: () => new Date(),
    repository: REPO,
    ref: 'main',
    installationId: INSTALLATION,
  });
  const { key } = await createApiKey({ db, clock: () => new Date(), projectId: project.id, scope: 'write' });
  await close();

  // The instant model: one edit of the job's own page, then the summary.
  anthropic.fallback((request) => {
    const n = Number(/\[bench-(\d+)\]/.exec(JSON.stringify(request.body.messages[0]))?.[1] ?? 0);
    if (request.body.messages.length > 1)
      return { content: [text(`Title: Close page ${n}\n\nAdded a closing line to page ${n}.`)] };
    return {
      content: [
        edit({
          command: 'str_replace',
          path: pageOf(n),
          old_str: `# Page ${n}\n`,
          new_str: `# Page ${n}\n\nBench edit ${n}.\n`,
        }),
      ],
    };
  });

  const floorToken = `ghs_floor_${Date.now()}`;
  host.tokens.push({ token: floorToken, installationId: INSTALLATION, issuedAt: Date.now() });
  let next = 0;

  console.log(
    `agent jobs benchmark: ${FILES} Markdown files, instant scripted model, ${RUNS} samples, ${PROVIDER}, GitHub write pacing ${THROTTLE ? 'on' : 'off'}\n`,
  );
  const single = await startScribeProcess({
    env: scribeEnv({
      databaseUrl: database.target.url,
      github: host,
      anthropicUrl: anthropic.url,
      extra: { TMPDIR: tmp, SCRIBE_JOB_RATE_LIMIT: '10000', SCRIBE_GITHUB_THROTTLE: String(THROTTLE) },
    }),
  });
  const api: Api = { scribe: single, projectId: project.id, key };
  const phases: Record<string, number>[] = [];
  const scribeSample = async () => {
    const started = performance.now();
    const id = await submit(api, next++);
    const job = await waitDone(api, id);
    const elapsed = performance.now() - started;
    if (!job.prLink) throw new Error(`job ended ${job.status} without a pull request: ${job.error}`);
    phases.push(await breakdown(api, id));
    return elapsed;
  };
  // Warm-up (JIT, first JWT, first clone) is not counted on either side; samples alternate so both see the same
  // machine load.
  await gitFloor(host, floorToken, 1999);
  await scribeSample();
  phases.length = 0;
  floorPhases.length = 0;
  const floors: number[] = [];
  const latencies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(await gitFloor(host, floorToken, 1990 - i));
    latencies.push(await scribeSample());
  }
  await single.stop();
  const floor = median(floors);
  const scribe = median(latencies);
  console.log('1. POST /job → prLink, one job at a time (median)');
  console.log(`   git floor (clone --depth 1 + commit + push): ${ms(floor)}   samples ${floors.map(ms).join(', ')}`);
  console.log(
    `     (clone ${ms(median(floorPhases.map((p) => p.clone)))}, commit ${ms(median(floorPhases.map((p) => p.commit)))}, push ${ms(median(floorPhases.map((p) => p.push)))})`,
  );
  console.log(
    `   Scribe:                                      ${ms(scribe)}   samples ${latencies.map(ms).join(', ')}`,
  );
  console.log(`   overhead ratio Scribe / floor: ${(scribe / floor).toFixed(2)}× (target ≤ 1.5×)`);
  console.log("   where a job's time goes (median ms, from the job's events):");
  for (const phase of Object.keys(phases[0]))
    console.log(
      `     ${phase.padEnd(42)} ${median(phases.map((p) => p[phase]))
        .toFixed(0)
        .padStart(6)}`,
    );
  console.log('');

  const results: Record<string, unknown> = {
    files: FILES,
    floorMs: Math.round(floor),
    scribeMs: Math.round(scribe),
    ratio: Number((scribe / floor).toFixed(2)),
  };
  console.log(`2. ${JOBS} jobs submitted at once`);
  for (const concurrency of ONLY_OVERHEAD ? [] : [2, 4]) {
    const scribeProcess = await startScribeProcess({
      env: scribeEnv({
        databaseUrl: database.target.url,
        github: host,
        anthropicUrl: anthropic.url,
        extra: {
          TMPDIR: tmp,
          SCRIBE_JOB_CONCURRENCY: String(concurrency),
          SCRIBE_JOB_RATE_LIMIT: '10000',
          SCRIBE_GITHUB_THROTTLE: String(THROTTLE),
        },
      }),
    });
    const batch: Api = { scribe: scribeProcess, projectId: project.id, key };
    const idle = rssMb(scribeProcess.pid, 'VmRSS');
    const started = performance.now();
    const ids = await Promise.all(Array.from({ length: JOBS }, () => submit(batch, next++)));
    const jobs = await waitAllDone(batch, ids);
    const elapsed = performance.now() - started;
    const failed = jobs.filter((j) => j.status !== 'completed' || !j.prLink);
    if (failed.length)
      throw new Error(`${failed.length} of ${JOBS} jobs did not complete with a pull request: ${failed[0].error}`);
    const peak = rssMb(scribeProcess.pid);
    await scribeProcess.stop();
    const throughput = JOBS / (elapsed / 1000);
    console.log(
      `   concurrency ${concurrency}: all ${JOBS} completed in ${(elapsed / 1000).toFixed(2)} s → ${throughput.toFixed(2)} jobs/s; Scribe peak RSS ${peak.toFixed(0)} MB (idle after start ${idle.toFixed(0)} MB)`,
    );
    results[`c${concurrency}`] = {
      seconds: Number((elapsed / 1000).toFixed(2)),
      jobsPerSecond: Number(throughput.toFixed(2)),
      peakRssMb: Math.round(peak),
      idleRssMb: Math.round(idle),
    };
  }
  const c2 = results.c2 as { jobsPerSecond: number } | undefined;
  const c4 = results.c4 as { jobsPerSecond: number } | undefined;
  if (c2 && c4)
    console.log(`   throughput ratio concurrency 4 / 2: ${(c4.jobsPerSecond / c2.jobsPerSecond).toFixed(2)}×`);
  console.log(`\n${JSON.stringify({ bench: 'agent', ...results })}`);

  await anthropic.close();
  await host.close();
  await database.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
