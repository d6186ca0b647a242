import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import { analyticsRobotsRoutes } from '../../../src/http/routes/analytics-robots.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { PROVIDERS } from '../../support/databases.js';

const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const V1 = 'User-agent: GPTBot\nDisallow: /private\n\nUser-agent: *\nAllow: /\n';
const V2 = 'User-agent: GPTBot\nDisallow: /beta\n';

describe.each(PROVIDERS)('robots.txt compliance on %s', (provider) => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-robots-'));
    const file = path.join(dir, 'ranges.json');
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
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsRobotsRoutes({ analytics })],
      env: { SCRIBE_AI_RANGES_FILE: file },
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('judges each view by the version in force when it was read, split by standing', async () => {
    const projectId = (await app.project()).id;
    const [writeKey, readKey] = [await app.key(projectId, 'write'), await app.key(projectId, 'read')];
    const analytics = app.services.analytics;
    expect(
      await analytics.importRobotsTxt({
        projectId,
        host: 'docs.example.com',
        content: V1,
        seenAt: Date.parse('2026-11-20T00:00:00Z'),
      }),
    ).toMatchObject({ outcome: 'new version' });
    expect(
      await analytics.importRobotsTxt({
        projectId,
        host: 'docs.example.com',
        content: V1,
        seenAt: Date.parse('2026-11-20T06:00:00Z'),
      }),
    ).toMatchObject({ outcome: 'same as the version in force' });
    await analytics.importRobotsTxt({
      projectId,
      host: 'docs.example.com',
      content: V2,
      seenAt: Date.parse('2026-11-20T12:00:00Z'),
    });
    // an old copy imported late changes no history
    expect(
      await analytics.importRobotsTxt({
        projectId,
        host: 'docs.example.com',
        content: 'x',
        seenAt: Date.parse('2026-11-19T00:00:00Z'),
      }),
    ).toMatchObject({ outcome: 'older than the versions held' });

    const at = (hour: number) => `2026-11-20T${String(hour).padStart(2, '0')}:00:00Z`;
    const events = [
      { timestamp: at(1), path: '/robots.txt', userAgent: ua('GPTBot'), ip: '192.0.2.10' },
      { timestamp: at(2), path: '/private/a', userAgent: ua('GPTBot'), ip: '192.0.2.10' }, // v1: disallowed, verified
      { timestamp: at(3), path: '/private/a', userAgent: ua('GPTBot'), ip: '203.0.113.5' }, // spoofed
      { timestamp: at(4), path: '/beta', userAgent: ua('GPTBot'), ip: '192.0.2.10' }, // v1 allows it
      { timestamp: at(13), path: '/private/a', userAgent: ua('GPTBot'), ip: '192.0.2.10' }, // v2 allows it
      { timestamp: at(14), path: '/beta', userAgent: ua('GPTBot'), ip: '192.0.2.11' }, // v2: disallowed
      { timestamp: at(15), path: '/private/a', userAgent: ua('ClaudeBot'), ip: '203.0.113.7' }, // `*` allows it
    ];
    const posted = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    // robots.txt is not a page: refused as a view, kept as who asked for it
    expect(((await posted.json()) as { accepted: number }).accepted).toBe(6);
    const response = await fetch(
      `${app.url}/v1/analytics/${projectId}/ai/robots?dateFrom=2026-11-20&dateTo=2026-11-21`,
      {
        headers: { authorization: `Bearer ${readKey}` },
      },
    );
    expect(response.status).toBe(200);
    const report = (await response.json()) as any;
    expect(report.hosts).toEqual([
      {
        host: 'docs.example.com',
        versions: [
          expect.objectContaining({ firstSeenAt: '2026-11-20T00:00:00.000Z', lastSeenAt: '2026-11-20T06:00:00.000Z' }),
          expect.objectContaining({ firstSeenAt: '2026-11-20T12:00:00.000Z' }),
        ],
        // imported only: never fetched
        lastFetch: null,
      },
    ]);
    const gpt = report.agents.find((a: any) => a.agent === 'GPTBot');
    expect(gpt.views).toBe(5);
    expect(gpt.fetchedRobotsTxt).toBe(true);
    expect(gpt.verified).toEqual({
      views: 2,
      paths: [
        { host: 'docs.example.com', path: '/beta', rule: 'Disallow: /beta', views: 1 },
        { host: 'docs.example.com', path: '/private/a', rule: 'Disallow: /private', views: 1 },
      ],
    });
    expect(gpt.spoofed).toEqual({
      views: 1,
      paths: [{ host: 'docs.example.com', path: '/private/a', rule: 'Disallow: /private', views: 1 }],
    });
    expect(report.agents.find((a: any) => a.agent === 'ClaudeBot')).toMatchObject({
      views: 1,
      verified: { views: 0 },
      unverified: { views: 0 },
    });
    expect(report.fetchedRobotsTxt).toEqual(['GPTBot']);
    expect(report.neverFetchedRobotsTxt).toEqual(['ClaudeBot']);
  });

  it('answers 400 for a bad date and 401 without a key', async () => {
    const projectId = (await app.project()).id;
    const readKey = await app.key(projectId, 'read');
    const bad = await fetch(`${app.url}/v1/analytics/${projectId}/ai/robots?dateFrom=2026-02-30`, {
      headers: { authorization: `Bearer ${readKey}` },
    });
    expect(bad.status).toBe(400);
    expect((await fetch(`${app.url}/v1/analytics/${projectId}/ai/robots`)).status).toBe(401);
  });
});

describe('the hourly robots.txt fetch', () => {
  let app: TestApp;
  let server: http.Server;
  let base: string;
  let answer: { status: number; body: string } = { status: 200, body: V1 };
  let now = Date.parse('2026-11-21T00:00:00Z');
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [analyticsRobotsRoutes({ analytics })],
      env: { SCRIBE_KEY_DIRECTORY_ALLOW: '127.0.0.1/32' },
      clock: () => new Date(now),
    });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps each version once an hour, a missing robots.txt as no rules, a failure as the host unavailable', async () => {
    const projectId = (await app.project()).id;
    const readKey = await app.key(projectId, 'read');
    const hosts = async () => [{ projectId, host: 'docs.example.com' }];
    const round = () => app.services.analytics.refreshRobots(hosts, () => `${base}/robots.txt`);
    const report = async () =>
      (await (
        await fetch(`${app.url}/v1/analytics/${projectId}/ai/robots?dateFrom=2026-11-20&dateTo=2026-11-22`, {
          headers: { authorization: `Bearer ${readKey}` },
        })
      ).json()) as any;
    expect(await round()).toBe(1);
    // within the hour, no replica fetches again
    expect(await round()).toBe(0);
    expect(hits).toBe(1);
    now += 3_600_000;
    answer = { status: 404, body: 'gone' };
    expect(await round()).toBe(1);
    now += 3_600_000;
    answer = { status: 503, body: '' };
    expect(await round()).toBe(1);
    const { hosts: seen } = await report();
    expect(seen).toEqual([
      {
        host: 'docs.example.com',
        versions: [
          expect.objectContaining({ firstSeenAt: '2026-11-21T00:00:00.000Z' }),
          // no robots.txt: an empty version, nothing disallowed from then on
          expect.objectContaining({ firstSeenAt: '2026-11-21T01:00:00.000Z' }),
        ],
        lastFetch: { at: '2026-11-21T02:00:00.000Z', status: 503, error: 'answered 503' },
      },
    ]);
  });
});
