import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../../src/http/routes/analytics-breakdowns.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;

describe.each(PROVIDERS)('a spoofed AI user agent on %s', (provider) => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ranges-'));
    const file = path.join(dir, 'ranges.json');
    // documentation addresses (RFC 5737) standing in for an operator's published range
    fs.writeFileSync(
      file,
      JSON.stringify({
        sources: [
          {
            operator: 'OpenAI',
            agents: ['GPTBot'],
            url: 'https://openai.com/gptbot.json',
            creationTime: null,
            prefixes: ['192.0.2.0/24'],
          },
        ],
      }),
    );
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
      ],
      env: { SCRIBE_AI_RANGES_FILE: file },
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is counted apart as unverified, not as AI traffic; agents without ranges stay AI (unverifiable)', async () => {
    const projectId = (await app.project()).id;
    const [writeKey, readKey] = [await app.key(projectId, 'write'), await app.key(projectId, 'read')];
    const events = [
      { path: '/a', userAgent: ua('GPTBot'), ip: '192.0.2.10' }, // inside the range: verified
      { path: '/a', userAgent: ua('GPTBot'), ip: '203.0.113.5' }, // outside: spoofed
      { path: '/a', userAgent: ua('GPTBot'), ip: '203.0.113.6' },
      { path: '/a', userAgent: ua('ClaudeBot'), ip: '203.0.113.7' }, // no published ranges here: unverifiable
    ].map((e) => ({ timestamp: '2026-11-20T10:00:00Z', ...e }));
    const headers = { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' };
    expect(
      (
        (await (
          await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
            method: 'POST',
            headers,
            body: JSON.stringify(events),
          })
        ).json()) as any
      ).accepted,
    ).toBe(4);
    const get = async (p: string) =>
      (
        await fetch(`${app.url}/v1/analytics/${projectId}/${p}?dateFrom=2026-11-20&dateTo=2026-11-21`, {
          headers: { authorization: `Bearer ${readKey}` },
        })
      ).json() as Promise<any>;
    expect((await get('visitors')).totals).toEqual({ human: 0, ai: 2, total: 2 });
    const { totals } = await get('ai/purposes');
    expect(totals.views).toMatchObject({ aiViews: 2, trainingViews: 2, totalViews: 2, unverifiedAiViews: 2 });
    const agents = await get('agents');
    expect(agents.agents.map((a: any) => a.agent).sort()).toEqual(['ClaudeBot', 'GPTBot']);
    for (const a of agents.agents) expect(a.verifiedVisitors + a.unverifiableVisitors).toBe(a.visitors);
    // the spoofed views, by the agent they claimed
    expect(agents.spoofed).toEqual([expect.objectContaining({ agent: 'GPTBot', views: 2 })]);
  });
});
