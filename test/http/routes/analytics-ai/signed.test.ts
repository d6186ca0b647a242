import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../../src/http/routes/analytics-breakdowns.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { operatorKey, signedHeaders } from '../../../support/web-bot-auth-signer.js';

const AT = Date.parse('2026-11-20T10:00:00Z');
const CHATGPT_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';

describe.each(PROVIDERS)('Web Bot Auth through the events route on %s', (provider) => {
  let app: TestApp;
  let dir: string;
  let directory: http.Server;
  let origin: string;
  let key: Awaited<ReturnType<typeof operatorKey>>;
  beforeAll(async () => {
    key = await operatorKey();
    directory = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    await new Promise<void>((resolve) => directory.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-signed-route-'));
    fs.writeFileSync(path.join(dir, 'ranges.json'), JSON.stringify({ sources: [] }));
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
      ],
      env: { SCRIBE_AI_RANGES_FILE: path.join(dir, 'ranges.json'), SCRIBE_KEY_DIRECTORY_ALLOW: '127.0.0.1/32' },
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
    await app.services.analytics.importRangesAndDirectories([
      {
        name: 'directories.json',
        retrievedAt: '2026-11-19T00:00:00Z',
        text: JSON.stringify({
          directories: [
            {
              url: `${origin}/.well-known/http-message-signatures-directory`,
              operator: 'OpenAI',
              agents: ['ChatGPT-User'],
            },
          ],
        }),
      },
    ]);
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => directory.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('verifies a signed event, calls a bad signature spoofed, and refuses bad header shapes with a 400', async () => {
    const projectId = (await app.project()).id;
    const [writeKey, readKey] = [await app.key(projectId, 'write'), await app.key(projectId, 'read')];
    const signed = await signedHeaders({
      url: 'https://docs.example.com/guide',
      signer: key.signer,
      signatureAgent: `"${origin}"`,
      created: AT - 5_000,
      expires: AT + 55_000,
    });
    const event = (over: Record<string, unknown>) => ({
      timestamp: new Date(AT).toISOString(),
      path: '/guide',
      userAgent: CHATGPT_USER,
      ip: '203.0.113.9',
      ...over,
    });
    const post = (body: unknown) =>
      fetch(`${app.url}/v1/analytics/${projectId}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const response = await post([
      event({ id: 'good', headers: { ...signed, host: 'docs.example.com' } }),
      // the same signature presented for a later request: outside its window
      event({
        id: 'replay',
        timestamp: new Date(AT + 600_000).toISOString(),
        headers: { ...signed, host: 'docs.example.com' },
      }),
      event({ id: 'garbage', headers: { signature: 'x', 'signature-input': 'sig1=(', 'signature-agent': '"' } }),
      event({ id: 'shape', headers: { signature: 42 } }),
      event({ id: 'big', headers: { signature: 'x'.repeat(9000) } }),
      event({ id: 'list', headers: ['signature'] }),
    ]);
    expect(response.status).toBe(202);
    const result = (await response.json()) as { accepted: number; rejected: { index: number; error: string }[] };
    expect(result.accepted).toBe(3);
    expect(result.rejected.map((r) => r.index)).toEqual([3, 4, 5]);
    for (const r of result.rejected) expect(r.error).toMatch(/^headers/);

    const get = async (p: string) =>
      (
        await fetch(`${app.url}/v1/analytics/${projectId}/${p}?dateFrom=2026-11-20&dateTo=2026-11-21`, {
          headers: { authorization: `Bearer ${readKey}` },
        })
      ).json() as Promise<any>;
    const agents = await get('agents');
    expect(agents.agents).toEqual([
      expect.objectContaining({
        agent: 'ChatGPT-User',
        views: 1,
        verifiedVisitors: 1,
        verifiedViews: { signature: 1, ipRange: 0, reverseDns: 0 },
      }),
    ]);
    expect(agents.spoofed).toEqual([expect.objectContaining({ agent: 'ChatGPT-User', views: 2 })]);
    const purposes = await get('ai/purposes');
    expect(purposes.verification).toEqual({ signature: 1, ipRange: 0, reverseDns: 0, unverifiable: 0, spoofed: 2 });
    expect(purposes.totals.views).toMatchObject({ aiViews: 1, unverifiedAiViews: 2 });
  });
});
