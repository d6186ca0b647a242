import crypto from 'node:crypto';
import robotsParserModule from 'robots-parser';
import { DAY_MS, type TimeRange } from '../../../src/calendar.js';
import { aiRobots } from '../../../src/analytics/reports/ai-robots.js';
import { agentViewCounts } from '../../../src/analytics/reports/agent-view-counts.js';
import type { RobotsVersion } from '../../../src/analytics/store/robots-txt.js';
import { describeAiReport, event, storeFolded, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { readsOf, recordingSql } from '../../support/recording-sql.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';

const DAY0 = Date.UTC(2026, 10, 10) / DAY_MS;
const at = (day: number, ms = 0) => (DAY0 + day) * DAY_MS + ms;

/**
 * Two hosts whose robots.txt changes during the traffic, mid-day and at midnight: a view is judged by the version
 * in force on its host when it was read, so a day's counts must be split where a version comes into force.
 */
const VERSIONS: RobotsVersion[] = [
  { host: 'docs.example.com', content: 'User-agent: GPTBot\nDisallow: /p1\n\nUser-agent: *\nDisallow: /p2\n' },
  {
    host: 'docs.example.com',
    content: 'User-agent: GPTBot\nDisallow: /p3\nDisallow: /p4\n\nUser-agent: ClaudeBot\nDisallow: /\n',
  },
  { host: 'docs.example.com', content: 'User-agent: *\nDisallow: /p5\n' },
  { host: 'www.example.com', content: 'User-agent: ChatGPT-User\nDisallow: /p6\n\nUser-agent: *\nAllow: /\n' },
].map((v, i) => {
  const firstSeenAt = [at(0, 3 * 3_600_000 + 17), at(3), at(4, 20 * 3_600_000), at(2)][i];
  return {
    ...v,
    hash: crypto.createHash('sha256').update(v.content).digest('hex'),
    firstSeenAt,
    lastSeenAt: firstSeenAt + 1000,
  };
});

const rawViews = (events: RawEvent[], range: TimeRange) =>
  events
    .filter((e) => e.ts >= range.from && e.ts < range.to)
    .filter((e) => e.kind === 2 || (e.kind === 0 && e.agent?.startsWith('unverified ')))
    .map((e) => ({ ts: e.ts, path: e.path, kind: e.kind, agent: e.agent ?? '', verification: e.verification }));

const readers = [{ agent: 'GPTBot' }];

describeAiReport({
  name: 'ai/robots',
  report: async (ctx, range) =>
    aiRobots({
      versions: VERSIONS,
      views: await agentViewCounts({ ...ctx, range, cuts: VERSIONS.map((v) => v.firstSeenAt) }),
      readers,
    }),
  naive: (events, range) => aiRobots({ versions: VERSIONS, views: rawViews(events, range), readers }),
});

describe('aiRobots judging paths', () => {
  // what robots-parser says of each path, asked directly: the report's shortcut for paths no pattern can match
  // must never disagree with it
  const robotsParser = robotsParserModule as unknown as (
    url: string,
    text: string,
  ) => { isDisallowed(url: string, ua: string): boolean | undefined };
  const FILES = [
    'User-agent: GPTBot\nDisallow: /p1\nDisallow: /*.pdf$\n\nUser-agent: *\nDisallow: /a%3Cb\n',
    'User-agent: *\rDisallow: /docs/\rAllow: /docs/public\r# Disallow: /p2\rDisallow: *secret\n',
    'user-agent: claudebot\ndisallow: /Guide # a comment\nDISALLOW:/x:y\n',
    'User-agent: *\nDisallow: /caf%C3%A9\nDisallow: /é\n',
  ];
  const PATHS = [
    '/p1',
    '/p10',
    '/doc.pdf',
    '/doc.pdfx',
    '/a<b',
    '/a%3cb',
    '/docs/x',
    '/docs/public/y',
    '/p2',
    '/my-secret',
    '/guide',
    '/Guide/x',
    '/x:y',
    '/café',
    '/caf%C3%A9',
    '/é',
    '/docs/../p1',
    '/b c',
    '/',
  ];
  it.each(FILES.map((f, i) => [i, f]))('file %i: each path as robots-parser judges it', (_i, content) => {
    for (const agent of ['GPTBot', 'ClaudeBot', 'PerplexityBot']) {
      const hash = crypto.createHash('sha256').update(content).digest('hex');
      const versions = [{ host: 'h.example', hash, content, firstSeenAt: 0, lastSeenAt: 0 }];
      const views = PATHS.map((path) => ({ ts: 1, path, kind: 2, agent, verification: null }));
      const report = aiRobots({ versions, views, readers: [] });
      const found = new Set(report.agents[0].unverified.paths.map((p) => p.path));
      const robot = robotsParser('https://h.example/robots.txt', content);
      const expected = new Set(PATHS.filter((p) => robot.isDisallowed(`https://h.example${p}`, agent)));
      expect([...found].sort()).toEqual([...expected].sort());
    }
  });
});

describe.each(PROVIDERS)('agentViewCounts cut inside a day, on %s', (provider) => {
  const ctx = useReportStore(provider);
  const HOUR = 3_600_000;

  it('reads raw only the part of the day between the cut and its nearer midnight, and counts each piece exactly', async () => {
    const { sql, dictionaries, cache, projectId } = ctx();
    // GPTBot on days 0 to 5, one view an hour; the day is folded, so whole days come from the rollup
    const views = Array.from({ length: 6 * 24 }, (_, h) =>
      event({ ts: at(0, h * HOUR + 1000), kind: 2, agent: 'GPTBot', visitorHash: `v${h % 7}`, path: `/p${h % 3}` }),
    );
    await storeFolded(ctx(), views);
    const { recording, statements } = recordingSql(sql);
    // a cut 3 hours into day 1 (nearer its start), one 4 hours before the end of day 3 (nearer its end)
    const cuts = [at(1, 3 * HOUR), at(3, 20 * HOUR)];
    const counts = await agentViewCounts({
      sql: recording,
      dictionaries,
      cache,
      projectId,
      range: { from: at(0), to: at(6) },
      cuts,
    });
    const byPiece = new Map<number, number>();
    for (const v of counts) byPiece.set(v.ts, (byPiece.get(v.ts) ?? 0) + (v.views ?? 1));
    expect([...byPiece]).toEqual([
      [at(0), 24 + 3],
      [cuts[0], 21 + 24 + 20],
      [cuts[1], 4 + 48],
    ]);
    // the two days cut are read raw for 3 and 4 hours, not whole (48 hours)
    const raw = readsOf(statements, 'AnalyticsEvent').filter(([text]) => text.includes('"ts" >= ?'));
    expect(raw.map(([, [, from, to]]) => (Number(to) - Number(from)) / HOUR).sort()).toEqual([3, 4]);
  });
});
