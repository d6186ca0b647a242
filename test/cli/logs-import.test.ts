import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/analytics');

describe('scribe logs import', () => {
  let app: TestApp;
  let projectId: string;
  let key: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      env: { SCRIBE_SECRET: 'test-secret-test-secret-test-secret-0123' },
    });
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'read');
    env = { DATABASE_URL: app.ctx.database.url, SCRIBE_SECRET: 'test-secret-test-secret-test-secret-0123' };
  });
  afterAll(async () => {
    await app.close();
  });

  const run = async (argv: string[], stdin: NodeJS.ReadableStream = process.stdin) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin, interactive: false };
    const code = await runCli(argv, io, env);
    return { code, out, err };
  };

  it('imports a file and prints what was read, accepted and skipped, and why', async () => {
    const result = await run(['logs', 'import', '--project', projectId, path.join(FIXTURES, 'access-combined.txt')]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe('format combined: 14 lines read, 7 accepted (0 already imported), 7 skipped');
    expect(result.out).toContain('  2\tnot a page: a static asset or not a path');
    expect(result.out).toContain('  line 10: not a combined log line');
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/visitors?dateFrom=2026-11-01&dateTo=2026-11-30`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await res.json()) as { totals: object }).totals).toEqual({ human: 3, ai: 2, total: 5 });
  });

  it('reads standard input with -, in any chunking, with a named format', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'vercel.ndjson'), 'utf8');
    // 7-byte chunks split lines and multi-byte characters alike
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(Buffer.from(bytes.subarray(i, i + 7)));
    const result = await run(
      ['logs', 'import', '--project', projectId, '--format', 'vercel', '-'],
      Readable.from(chunks),
    );
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe('format vercel: 6 lines read, 2 accepted (0 already imported), 4 skipped');
  });

  it('refuses bad usage with exit code 2 and unknown projects with 1', async () => {
    expect((await run(['logs', 'import', path.join(FIXTURES, 'vercel.ndjson')])).code).toBe(2);
    expect(
      (
        await run([
          'logs',
          'import',
          '--project',
          projectId,
          '--format',
          'syslog',
          path.join(FIXTURES, 'vercel.ndjson'),
        ])
      ).code,
    ).toBe(2);
    const missing = await run(['logs', 'import', '--project', projectId, path.join(os.tmpdir(), 'no-such-file.log')]);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/cannot read .*no-such-file\.log \(ENOENT\)/);
    expect((await run(['logs', 'import', '--project', 'prj_unknown', path.join(FIXTURES, 'vercel.ndjson')])).code).toBe(
      1,
    );
  });
});
