import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Analytics } from '../../../src/analytics/analytics.js';
import type { PageView } from '../../../src/analytics/ingest/prepare-event.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { operatorKey, signedHeaders } from '../../support/web-bot-auth-signer.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const T = NOW - 3_600_000;
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const CHATGPT_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';

describe.each(PROVIDERS)('signed AI views on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;
  let server: http.Server;
  let origin: string;
  let dir: string;
  let key: Awaited<ReturnType<typeof operatorKey>>;
  const fetched: string[] = [];

  beforeAll(async () => {
    key = await operatorKey();
    server = http.createServer((req, res) => {
      fetched.push(req.url ?? '');
      if (req.url === '/.well-known/http-message-signatures-directory') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
        res.end(JSON.stringify({ keys: [key.publicJwk] }));
      } else {
        res.writeHead(302, { location: '/.well-known/http-message-signatures-directory' });
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-signed-'));
    // no address lists: only signatures decide here
    fs.writeFileSync(path.join(dir, 'ranges.json'), JSON.stringify({ sources: [] }));
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'signature-secret-signature-secret-signature',
      config: {
        saltRotation: 'never',
        trustedProxyHeader: undefined,
        cacheMb: 16,
        aiRangesFile: path.join(dir, 'ranges.json'),
        aiRanges: {
          refresh: 'off',
          maxAgeDays: 30,
          urlOverride: undefined,
          reverseDns: false,
          keyDirectoryAllow: ['127.0.0.1/32'],
        },
      },
      logger: createLogger('silent'),
      clock: () => new Date(NOW),
      autoFold: false,
    });
    sql = openSql(database.target);
    const imported = await analytics.importRangesAndDirectories([
      {
        name: 'directories.json',
        retrievedAt: new Date(NOW - 86_400_000).toISOString(),
        text: JSON.stringify({
          directories: [
            {
              url: `${origin}/.well-known/http-message-signatures-directory`,
              operator: 'OpenAI',
              agents: ['ChatGPT Agent', 'ChatGPT-User'],
              keys: [],
            },
            { url: `${origin}/moved`, operator: 'OpenAI', agents: ['ChatGPT-User'], keys: [] },
          ],
        }),
      },
    ]);
    expect(imported.directories.map((d) => d.outcome)).toEqual(['imported', 'imported']);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = (projectId: string) =>
    sql.query<{ path: string; kind: number; agent: string | null; verification: number | null }>(
      `SELECT p."path" AS "path", e."kind" AS "kind", e."agent" AS "agent", e."verification" AS "verification"
         FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
        WHERE e."projectId" = ? ORDER BY p."path"`,
      [projectId],
    );
  const signed = (page: string, over: { created?: number; expires?: number; agent?: string } = {}) =>
    signedHeaders({
      url: `https://docs.example.com${page}`,
      signer: key.signer,
      signatureAgent: `"${over.agent ?? origin}"`,
      created: over.created ?? T - 5_000,
      expires: over.expires ?? T + 55_000,
    });
  const view = (page: string, userAgent: string, headers: PageView['headers'], id = page): PageView => ({
    timestamp: T,
    url: `https://docs.example.com${page}`,
    userAgent,
    ip: '203.0.113.9',
    headers,
    key: `id:${id}`,
  });

  it('stores each outcome once: verified by signature, spoofed, or left to the other checks', async () => {
    const forger = await operatorKey();
    const forged = await signedHeaders({
      url: 'https://docs.example.com/forged',
      signer: Object.assign(forger.signer, { keyid: key.keyid }),
      signatureAgent: `"${origin}"`,
      created: T - 5_000,
      expires: T + 55_000,
    });
    const replayed = await signed('/replayed', { created: T - 600_000, expires: T - 540_000 });
    const views = [
      view('/agent', CHROME, await signed('/agent')),
      view('/user', CHATGPT_USER, await signed('/user')),
      view('/forged', CHATGPT_USER, forged),
      view('/replayed', CHATGPT_USER, replayed),
      view('/malformed', CHATGPT_USER, { ...(await signed('/malformed')), 'signature-input': 'sig1=(' }),
      view('/browser-forged', CHROME, forged),
      view('/moved', CHATGPT_USER, await signed('/moved', { agent: `${origin}/moved` })),
    ];
    const first = await analytics.ingest('prj_sig', views);
    expect(first).toEqual({ accepted: 7, duplicates: 0, rejected: [] });
    // sent again (a retry, a log imported twice): nothing is stored twice
    expect(await analytics.ingest('prj_sig', views)).toEqual({ accepted: 7, duplicates: 7, rejected: [] });
    expect(await stored('prj_sig')).toEqual([
      { path: '/agent', kind: 2, agent: 'ChatGPT Agent', verification: 4 },
      // a browser that sent a signature it does not hold claimed no agent: still a human
      { path: '/browser-forged', kind: 1, agent: null, verification: null },
      { path: '/forged', kind: 0, agent: 'unverified ChatGPT-User', verification: null },
      { path: '/malformed', kind: 0, agent: 'unverified ChatGPT-User', verification: null },
      // the directory redirects: no keys, so nothing can tell
      { path: '/moved', kind: 2, agent: 'ChatGPT-User', verification: 2 },
      { path: '/replayed', kind: 0, agent: 'unverified ChatGPT-User', verification: null },
      { path: '/user', kind: 2, agent: 'ChatGPT-User', verification: 4 },
    ]);
    // fetched once (its Cache-Control holds), the redirect never followed
    expect(fetched.filter((u) => u.startsWith('/.well-known')).length).toBe(1);
    expect(fetched.filter((u) => u === '/moved').length).toBeGreaterThanOrEqual(1);

    const report = await analytics.aiAgents('prj_sig', { from: T - 86_400_000, to: NOW });
    const user = report.agents.find((a) => a.agent === 'ChatGPT-User')!;
    expect(user.verifiedViews).toEqual({ signature: 1, ipRange: 0, reverseDns: 0 });
    expect(user.views).toBe(2);
    expect(report.agents.find((a) => a.agent === 'ChatGPT Agent')!.verifiedViews.signature).toBe(1);
    expect(report.spoofed).toEqual([{ agent: 'ChatGPT-User', visitors: 1, views: 3 }]);
  });

  it('reads signatures from Cloudflare Logpush request headers', async () => {
    const headers = await signed('/from-logs');
    const line = JSON.stringify({
      ClientRequestMethod: 'GET',
      ClientRequestHost: 'docs.example.com',
      ClientRequestURI: '/from-logs',
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: new Date(T).toISOString(),
      ClientIP: '203.0.113.9',
      ClientRequestUserAgent: CHATGPT_USER,
      RequestHeaders: {
        Signature: headers.signature,
        'Signature-Input': headers['signature-input'],
        'Signature-Agent': headers['signature-agent'],
      },
    });
    const summary = await analytics.importLogs({
      projectId: 'prj_logs',
      input: (async function* () {
        yield `${line}\n`;
      })(),
      format: 'auto',
    });
    expect(summary.accepted).toBe(1);
    expect(await stored('prj_logs')).toEqual([{ path: '/from-logs', kind: 2, agent: 'ChatGPT-User', verification: 4 }]);
  });
});
