/** What the benchmarks share: a throwaway database and the benchmark server process (bench/analytics-server.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { addProject } from '../src/projects/projects.js';
import { createApiKey } from '../src/keys/api-keys.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.SCRIBE_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function createDatabase(
  provider: DatabaseTarget['provider'],
  label = '',
): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (provider === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-bench-'));
    const filePath = path.join(dir, 'bench.db');
    return {
      target: { provider, url: `file:${filePath}`, filePath },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `scribe_bench_${label ? `${label}_` : ''}${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    target: { provider, url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Migrates the database and adds a project (hostname docs.example.com) with a write key. */
export async function createProject(
  target: DatabaseTarget,
  repository: string,
): Promise<{ projectId: string; key: string }> {
  await migrateDatabase(target);
  const database = openDatabase(target);
  try {
    const clock = () => new Date();
    const project = await addProject({
      db: database.db,
      clock,
      repository,
      ref: 'main',
      hostnames: ['docs.example.com'],
    });
    const { key } = await createApiKey({ db: database.db, clock, projectId: project.id, scope: 'write' });
    return { projectId: project.id, key };
  } finally {
    await database.close();
  }
}

export function startServer(
  target: DatabaseTarget,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  // the heap cap a deployment would set (V8 otherwise grows the heap far beyond its live size) and the young
  // generation `npm start` and the Docker image give the service
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '--max-old-space-size=512 --max-semi-space-size=64')
    .split(' ')
    .filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', path.join(ROOT, 'bench/analytics-server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: target.url,
      LOG_LEVEL: 'warn',
      SCRIBE_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const m = /READY (\d+)/.exec(chunk.toString());
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** The peak resident memory of a process so far (Linux: VmHWM), in MiB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}
