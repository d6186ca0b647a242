import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Webhooks } from '@octokit/webhooks';
import Database from 'better-sqlite3';
import { testAppPrivateKey } from './support/app-private-key.js';

const root = path.resolve(import.meta.dirname, '..');
// tsx's loader, given to node itself: a signal sent to the pid must reach the server, not a wrapper relaying it
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Started {
  child: ChildProcess;
  url: string;
  logs: string[];
}

/** Starts `src/main.ts` as its own process (what `npm start` runs) and waits for its "listening" log line. */
async function startProcess(cwd: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.join(root, 'src/main.ts')], {
    cwd,
    // the operators' range lists are not fetched: what the process logs must not depend on the machine's network
    env: { PATH: process.env.PATH!, PORT: '0', SCRIBE_AI_RANGES_REFRESH: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no listening line; logs:\n${logs.join('\n')}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        logs.push(line);
        const entry = JSON.parse(line) as { msg: string; port?: number };
        if (entry.msg === 'scribe listening') {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${entry.port}`);
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}; logs:\n${logs.join('\n')}`)));
  });
  return { child, url, logs };
}

async function stopProcess(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill('SIGTERM');
  return exited;
}

describe('the service process', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-main-'));
  });
  afterEach(() => {
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('starts with no configuration on SQLite under ./data, migrates, says what agent jobs lack, and keeps its secret', async () => {
    const first = await startProcess(cwd, {});
    expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${first.url}/readyz`)).json()).toEqual({ status: 'ok', database: 'sqlite' });
    const entries = first.logs.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.filter((e) => e.level === 40).map((e) => e.msg)).toEqual([
      'agent jobs are disabled until you set APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) of the GitHub App',
      'agent jobs are disabled until you set ANTHROPIC_API_KEY for the model',
    ]);
    expect(entries.some((e) => e.msg === 'applied database migrations')).toBe(true);
    const webhook = await fetch(`${first.url}/api/github/webhooks`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.status).toBe(503);
    expect(((await webhook.json()) as { error: string }).error).toMatch(/set APP_ID/);
    const key = `scribe_sk_${'Q'.repeat(40)}`;
    const probe = await fetch(`${first.url}/v2/agent/prj_x/job?token=abc`, {
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.77' },
    });
    expect(probe.status).toBeGreaterThanOrEqual(400);
    expect(await stopProcess(first)).toBe(0);
    const allLogs = first.logs.join('\n');
    expect(allLogs).toContain(probe.headers.get('x-request-id'));
    expect(allLogs).not.toContain(key);
    expect(allLogs).not.toContain('203.0.113.77');
    expect(allLogs).not.toContain('127.0.0.1');

    const dbFile = path.join(cwd, 'data/scribe.db');
    const readSecret = () => {
      const db = new Database(dbFile, { readonly: true });
      try {
        return (db.prepare("SELECT value FROM Setting WHERE key = 'server_secret'").get() as { value: string }).value;
      } finally {
        db.close();
      }
    };
    const secret = readSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    const second = await startProcess(cwd, {});
    expect(second.logs.some((l) => l.includes('applied database migrations'))).toBe(false);
    expect(await stopProcess(second)).toBe(0);
    expect(readSecret()).toBe(secret);
  });

  it('looks for completed outcome windows as soon as it starts, not 10 minutes later', async () => {
    const started = await startProcess(cwd, { LOG_LEVEL: 'debug' });
    const swept = () =>
      started.logs.some((l) => l.startsWith('{') && JSON.parse(l).msg === 'looked for completed outcome windows');
    try {
      for (let i = 0; i < 100 && !swept(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(swept()).toBe(true);
    } finally {
      expect(await stopProcess(started)).toBe(0);
    }
  });

  it('serves signed GitHub webhooks through Probot on the same server and rejects bad signatures', async () => {
    const privateKey = testAppPrivateKey();
    const started = await startProcess(cwd, {
      APP_ID: '1',
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: 'hook-secret',
      ANTHROPIC_API_KEY: 'test',
      LOG_LEVEL: 'debug',
    });
    try {
      const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
      const signature = await new Webhooks({ secret: 'hook-secret' }).sign(body);
      const headers = { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': 'd-1' };
      const good = await fetch(`${started.url}/api/github/webhooks`, {
        method: 'POST',
        body,
        headers: { ...headers, 'x-hub-signature-256': signature },
      });
      expect(good.status).toBe(200);
      const bad = await fetch(`${started.url}/api/github/webhooks`, {
        method: 'POST',
        body,
        headers: { ...headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      });
      expect(bad.status).toBe(400);
      expect(started.logs.join('\n')).not.toContain('Keep it logically awesome');
    } finally {
      await stopProcess(started);
    }
  });
});
