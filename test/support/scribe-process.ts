import { TEST_KEEP_ALIVE_SECONDS } from './keep-alive.js';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { GitHubHost } from './github-host.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The real Scribe server as a child process (`node --import tsx src/main.ts`), its JSON log parsed line by line. */
export interface ScribeProcess {
  url: string;
  port: number;
  pid: number;
  /** every JSON log line so far */
  logs: Record<string, unknown>[];
  stderr(): string;
  waitForLog(
    match: (line: Record<string, unknown>) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** SIGTERM, then waits for the exit code */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown code runs, as when a machine dies */
  kill(): Promise<void>;
}

export interface ScribeEnvParams {
  databaseUrl: string;
  github?: GitHubHost;
  anthropicUrl?: string;
  extra?: Record<string, string>;
}

/** The environment of a Scribe wired to the local stand-ins. */
export function scribeEnv(params: ScribeEnvParams): Record<string, string> {
  return {
    DATABASE_URL: params.databaseUrl,
    LOG_LEVEL: 'info',
    // never the operators' real sites or DNS: what a test counts must not depend on today's lists
    SCRIBE_AI_RANGES_REFRESH: 'off',
    SCRIBE_AI_REVERSE_DNS: 'off',
    SCRIBE_ROBOTS_FETCH: 'off',
    SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: String(TEST_KEEP_ALIVE_SECONDS),
    ...(params.github
      ? {
          APP_ID: String(params.github.app.id),
          PRIVATE_KEY: params.github.app.privateKey,
          WEBHOOK_SECRET: 'test-webhook-secret',
          GHE_HOST: params.github.host,
          GHE_PROTOCOL: 'http',
        }
      : {}),
    ...(params.anthropicUrl ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: params.anthropicUrl } : {}),
    ...params.extra,
  };
}

export async function startScribeProcess(params: {
  env: Record<string, string>;
  startTimeoutMs?: number;
}): Promise<ScribeProcess> {
  // node itself, not `npx tsx`: a signal sent to the pid must reach the server, not a wrapper that outlives it.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', ...params.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  let pending = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    for (const listener of listeners) listener();
  });

  const waitForLog = (match: (line: Record<string, unknown>) => boolean, what: string, timeoutMs = 20_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (found) return done(() => resolve(found));
        if (hasExited) done(() => reject(new Error(`scribe exited before ${what}; stderr: ${stderr.slice(-2000)}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out waiting for ${what}; stderr: ${stderr.slice(-2000)}`))),
        timeoutMs,
      );
      const done = (finish: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        finish();
      };
      listeners.add(check);
      check();
    });

  const listening = await waitForLog(
    (line) => line.msg === 'scribe listening',
    'scribe listening',
    params.startTimeoutMs ?? 30_000,
  );
  const port = Number(listening.port);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    logs,
    stderr: () => stderr,
    waitForLog,
    async stop() {
      if (!hasExited) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (!hasExited) child.kill('SIGKILL');
      await exited;
    },
  };
}
