import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { runCli } from '../../../../src/cli/run-cli.js';
import type { CliIo } from '../../../../src/cli/command.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const NOW = new Date('2026-11-21T12:00:00.000Z');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** raw UTF-8, as Cloudflare, Vercel and many nginx builds write it: 2-, 3- and 4-byte characters */
const UNICODE_UA = `${CHROME} Ünïcødé/€€€ 日本語`;
/** `scribe logs import` reads files in chunks of this size (src/cli/logs-import.ts) */
const CLI_READ_CHUNK = 1 << 20;

type Counts = { human: number; ai: number; total: number };

/** `count` combined lines, one a second from 2026-11-20 00:00 UTC, by `visitors` addresses over 50 pages. */
function combinedLog(params: { count: number; visitors: number; userAgent: string; pad?: number }): string {
  const lines: string[] = [];
  for (let i = 0; i < params.count; i++) {
    const t = new Date(Date.UTC(2026, 10, 20) + i * 1000);
    const time = `20/Nov/2026:${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}:${String(t.getUTCSeconds()).padStart(2, '0')} +0000`;
    // the query is not part of the page: it only lengthens lines (and the first one shifts every later byte)
    const query = `?utm_source=newsletter&utm_campaign=launch-${i}${i === 0 ? `&pad=${'x'.repeat(params.pad ?? 0)}` : ''}`;
    lines.push(
      `198.51.100.${i % params.visitors} - - [${time}] "GET /p${i % 50}${query} HTTP/1.1" 200 512 "-" "${params.userAgent}"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe.each(PROVIDERS)('log import counting on %s', (provider) => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      clock: () => NOW,
      env: { SCRIBE_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  async function freshProject() {
    const project = await app.project();
    key = await app.key(project.id, 'write');
    return project.id;
  }

  /** Posts a log body in writes of `size` bytes; chunked transfer encoding delivers each write as its own read. */
  function postInWrites(projectId: string, body: Buffer, size: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${app.url}/v1/analytics/${projectId}/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain; charset=utf-8' },
        // a socket of its own: a pooled keep-alive socket would outlive the test
        agent: false,
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          res.statusCode === 202
            ? resolve(JSON.parse(text) as Record<string, unknown>)
            : reject(new Error(`${res.statusCode}: ${text}`)),
        );
      });
      for (let i = 0; i < body.length; i += size) req.write(body.subarray(i, i + size));
      req.end();
    });
  }

  async function totals(projectId: string, kind: 'visitors' | 'views'): Promise<Counts> {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/${kind}?dateFrom=2026-11-01`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await res.json()) as { totals: Counts }).totals;
  }

  async function cliImport(projectId: string, file: string): Promise<string[]> {
    const out: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => out.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(['logs', 'import', '--project', projectId, file], io, {
      DATABASE_URL: app.ctx.database.url,
      SCRIBE_SECRET: SECRET,
    });
    expect({ code, out }).toMatchObject({ code: 0 });
    return out;
  }

  it('counts 5,000 lines by 120 visitors with raw UTF-8 user agents exactly, however the body or file is cut into reads', async () => {
    const projectId = await freshProject();
    // a file over one CLI read chunk whose chunk boundary falls inside a multi-byte character
    let body = Buffer.alloc(0);
    for (let pad = 0; pad < 400; pad++) {
      body = Buffer.from(combinedLog({ count: 5000, visitors: 120, userAgent: UNICODE_UA, pad }));
      if ((body[CLI_READ_CHUNK] & 0xc0) === 0x80) break;
    }
    expect(body.length).toBeGreaterThan(CLI_READ_CHUNK);
    expect(body[CLI_READ_CHUNK] & 0xc0).toBe(0x80);

    expect(await postInWrites(projectId, body, 1000)).toMatchObject({
      lines: 5000,
      accepted: 5000,
      duplicates: 0,
      skipped: {},
    });
    expect(await totals(projectId, 'visitors')).toEqual({ human: 120, ai: 0, total: 120 });
    expect(await totals(projectId, 'views')).toEqual({ human: 5000, ai: 0, total: 5000 });

    // the same file again, cut elsewhere: every line is recognised as already imported
    expect(await postInWrites(projectId, body, 777)).toMatchObject({ lines: 5000, accepted: 5000, duplicates: 5000 });
    expect(await totals(projectId, 'visitors')).toEqual({ human: 120, ai: 0, total: 120 });
    expect(await totals(projectId, 'views')).toEqual({ human: 5000, ai: 0, total: 5000 });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-utf8-'));
    try {
      fs.writeFileSync(path.join(dir, 'access.log'), body);
      const out = await cliImport(projectId, path.join(dir, 'access.log'));
      expect(out[0]).toBe('format combined: 5,000 lines read, 5,000 accepted (5,000 already imported), 0 skipped');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await totals(projectId, 'visitors')).toEqual({ human: 120, ai: 0, total: 120 });
    expect(await totals(projectId, 'views')).toEqual({ human: 5000, ai: 0, total: 5000 });
  });

  it('counts identical lines of one log as separate views, and a re-imported or grown log adds only its new lines', async () => {
    const projectId = await freshProject();
    // combined logs have one-second resolution: one reader opening a page twice in a second writes two identical lines
    const same = `198.51.100.7 - - [20/Nov/2026:10:00:00 +0000] "GET /twice HTTP/1.1" 200 512 "-" "${CHROME}"`;
    const three = Buffer.from(`${same}\n${same}\n${same}\n`);
    expect(await postInWrites(projectId, three, 1 << 16)).toMatchObject({ lines: 3, accepted: 3, duplicates: 0 });
    expect(await totals(projectId, 'views')).toEqual({ human: 3, ai: 0, total: 3 });
    expect(await totals(projectId, 'visitors')).toEqual({ human: 1, ai: 0, total: 1 });

    expect(await postInWrites(projectId, three, 50)).toMatchObject({ accepted: 3, duplicates: 3 });
    expect(await totals(projectId, 'views')).toEqual({ human: 3, ai: 0, total: 3 });

    // the log grew by a fourth copy: only that one is new
    expect(await postInWrites(projectId, Buffer.from(`${three}${same}\n`), 1 << 16)).toMatchObject({
      accepted: 4,
      duplicates: 3,
    });
    expect(await totals(projectId, 'views')).toEqual({ human: 4, ai: 0, total: 4 });
  });

  it('numbers identical lines across the batches of one import', async () => {
    const projectId = await freshProject();
    // 4,999 distinct lines, then three copies of one line: the first batch of 5,000 views ends between the copies
    const same = `198.51.100.9 - - [20/Nov/2026:23:00:00 +0000] "GET /p1 HTTP/1.1" 200 512 "-" "${CHROME}"`;
    const body = Buffer.from(
      `${combinedLog({ count: 4999, visitors: 120, userAgent: CHROME })}${same}\n${same}\n${same}\n`,
    );
    expect(await postInWrites(projectId, body, 1000)).toMatchObject({ lines: 5002, accepted: 5002, duplicates: 0 });
    expect(await totals(projectId, 'views')).toEqual({ human: 5002, ai: 0, total: 5002 });
    expect(await postInWrites(projectId, body, 777)).toMatchObject({ lines: 5002, accepted: 5002, duplicates: 5002 });
    expect(await totals(projectId, 'views')).toEqual({ human: 5002, ai: 0, total: 5002 });
  });
});
