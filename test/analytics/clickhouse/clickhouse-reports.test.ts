import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { DAY_MS, HOUR_MS, type TimeRange } from '../../../src/calendar.js';
import { Analytics } from '../../../src/analytics/analytics.js';
import type { PageView } from '../../../src/analytics/ingest/prepare-event.js';
import { splitRange } from '../../../src/analytics/clickhouse/clickhouse-reports.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';
import { openClickHouse } from '../../../src/analytics/clickhouse/clickhouse-client.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../../support/clickhouse-server.js';
import { olderClickHouseDatabase } from '../../support/older-clickhouse.js';
import { waitFor } from '../../support/wait-for.js';
import { OLDER_VISITOR_IDS } from '../../../src/analytics/clickhouse/clickhouse-schema.js';
import { Unavailable } from '../../../src/errors.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';

const SECRET = 'a'.repeat(64);
const START = Date.UTC(2026, 9, 30); // three days across a month's end (partitions), then a gap, then one more day
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const AGENTS = [
  CHROME,
  CHROME,
  CHROME,
  'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'curl/8.4.0',
  'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
];
/** GPTBot's published range in the fixture, and an address outside it (a spoofed GPTBot) */
const ADDRESSES = ['203.0.113.7', '198.51.100.9'];
const RANGES_FILE = path.resolve(import.meta.dirname, '../../fixtures/analytics/ai-ranges.json');
const PATHS = ['/', '/docs/start', '/docs/ünïcode/日本', '/docs/a b', '/api/ref'];

/** A fixed pseudo-random data set: duplicates (repeated keys), bots, AI agents, multi-byte paths, day edges. */
function dataSet(): PageView[][] {
  let seed = 17;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n; // the high bits: an LCG's low bits repeat with a short period
  };
  const batches: PageView[][] = [];
  for (let b = 0; b < 12; b++) {
    const batch: PageView[] = [];
    for (let i = 0; i < 60; i++) {
      const day = [0, 1, 2, 5][next(4)]!;
      // a third of the views in the minute either side of midnight
      const within = next(3) === 0 ? [0, 1, DAY_MS - 1, DAY_MS - 60_000][next(4)]! : next(DAY_MS);
      const visitor = next(25);
      batch.push({
        timestamp: START + day * DAY_MS + within,
        url: PATHS[next(PATHS.length)]!,
        // mostly one user agent per visitor, sometimes the next one: a visitor id seen as two agents, or human and AI
        userAgent: AGENTS[(visitor + (next(4) === 0 ? 1 : 0)) % AGENTS.length],
        visitorId: `reader-${visitor}`,
        ip: ADDRESSES[next(2)],
        referrer: ['https://chatgpt.com/', null, null, 'https://www.perplexity.ai/search', null][next(5)],
        key: `k${next(500)}`,
      });
    }
    batches.push(batch);
  }
  return batches;
}

const RANGES: TimeRange[] = [
  { from: START, to: START + 7 * DAY_MS },
  { from: START, to: START + DAY_MS },
  { from: START + DAY_MS, to: START + 2 * DAY_MS },
  { from: START - DAY_MS, to: START },
  { from: START + 1, to: START + DAY_MS - 1 },
  { from: START + DAY_MS - 60_000, to: START + DAY_MS + 60_000 },
  { from: START + 3 * HOUR_MS, to: START + 2 * DAY_MS + 5 * HOUR_MS },
  { from: START + 2 * DAY_MS + 1, to: START + 6 * DAY_MS },
  { from: START + 12 * HOUR_MS, to: START + 12 * HOUR_MS + 1 },
  { from: START + 3 * DAY_MS, to: START + 5 * DAY_MS },
];

const ROBOTS: [number, string][] = [
  [START - DAY_MS, 'User-agent: GPTBot\nDisallow: /docs/\n'],
  [START + DAY_MS + 5 * HOUR_MS, 'User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /api/\n'],
  [START + 2 * DAY_MS, 'User-agent: *\nDisallow: /docs/a b\nDisallow: /docs/ünïcode/\n'],
];
const SECTIONS = [
  { group: 'Docs', pages: ['/docs/start', '/docs/ünïcode/日本', '/docs/a b'] },
  { group: 'Other', pages: ['/', '/api/ref', '/never'] },
];

describe('splitRange', () => {
  it('reads whole days from the aggregates and the partial days at the edges from raw views', () => {
    expect(splitRange({ from: 0, to: 2 * DAY_MS })).toEqual({ days: [0, 2], edges: [] });
    expect(splitRange({ from: 5, to: 2 * DAY_MS + 7 })).toEqual({
      days: [1, 2],
      edges: [
        [5, DAY_MS],
        [2 * DAY_MS, 2 * DAY_MS + 7],
      ],
    });
    expect(splitRange({ from: 5, to: DAY_MS + 7 })).toEqual({ days: null, edges: [[5, DAY_MS + 7]] });
    expect(splitRange({ from: 5, to: 5 })).toEqual({ days: null, edges: [] });
  });
});

let standIn: ClickHouseStandIn;
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
});
afterAll(() => standIn.close());

describe.each(PROVIDERS)('ClickHouse reports answer as the embedded store, primary database %s', (provider) => {
  const embeddedDb = useTestDatabase(provider);
  const outboxDb = useTestDatabase(provider);
  const project = `prj_${provider}`;
  let embedded: Analytics;
  let clickhouse: Analytics;
  beforeAll(async () => {
    const logger = createLogger('silent');
    const clock = () => new Date(START + 10 * DAY_MS);
    const config = loadConfig({ CLICKHOUSE_URL: standIn.url, SCRIBE_AI_RANGES_FILE: RANGES_FILE }).analytics;
    embedded = new Analytics({
      target: embeddedDb.target,
      secret: SECRET,
      config: { ...config, clickhouse: undefined },
      logger,
      clock,
      autoFold: false,
    });
    clickhouse = new Analytics({ target: outboxDb.target, secret: SECRET, config, logger, clock });
    // both stores get the same batches, in the same order; a batch repeated (a client's retry) adds nothing
    const batches = dataSet();
    for (const batch of [...batches, batches[3]!]) {
      const [a, b] = await Promise.all([embedded.ingest(project, batch), clickhouse.ingest(project, batch)]);
      expect(b).toEqual(a);
    }
    await embedded.fold();
    await clickhouse.shipToClickHouse();
    // robots.txt changing during the traffic: before it, mid-day on its second day, at midnight of its third
    for (const analytics of [embedded, clickhouse])
      for (const [seenAt, content] of ROBOTS)
        await analytics.importRobotsTxt({ projectId: project, host: 'docs.example.com', content, seenAt });
  });
  afterAll(async () => {
    await embedded.close();
    await clickhouse.close();
  });

  it.each(RANGES.map((r) => [new Date(r.from).toISOString(), new Date(r.to).toISOString(), r] as const))(
    'visitors, views and visitors per day from %s to %s',
    async (_from, _to, range) => {
      const page = { limit: 1000, offset: 0 };
      const visitors = await embedded.visitors(project, range, page);
      expect(await clickhouse.visitors(project, range, page)).toEqual(visitors);
      expect(await clickhouse.views(project, range, page)).toEqual(await embedded.views(project, range, page));
      expect(await clickhouse.dailyVisitors(project, range)).toEqual(await embedded.dailyVisitors(project, range));
      expect(await clickhouse.aiAgents(project, range)).toEqual(await embedded.aiAgents(project, range));
      expect(await clickhouse.aiReferrals(project, range)).toEqual(await embedded.aiReferrals(project, range));
      expect(await clickhouse.aiPurposes(project, range)).toEqual(await embedded.aiPurposes(project, range));
      expect(await clickhouse.aiPurposeViews(project, range)).toEqual(await embedded.aiPurposeViews(project, range));
      const rows = { limit: 3, offset: 2 };
      expect(await clickhouse.aiPurposes(project, range, rows)).toEqual(
        await embedded.aiPurposes(project, range, rows),
      );
      for (const by of ['agent', 'operator'] as const) {
        for (const rows of [page, { limit: 3, offset: 4 }]) {
          expect(await clickhouse.aiAgentPages(project, range, by, rows)).toEqual(
            await embedded.aiAgentPages(project, range, by, rows),
          );
        }
      }
      expect(await clickhouse.aiRobots(project, range)).toEqual(await embedded.aiRobots(project, range));
      expect(await clickhouse.aiCoverage(project, range, SECTIONS)).toEqual(
        await embedded.aiCoverage(project, range, SECTIONS),
      );
      const second = { limit: 2, offset: 2 };
      expect(await clickhouse.visitors(project, range, second)).toEqual(
        await embedded.visitors(project, range, second),
      );
    },
  );

  it('site-wide visitors of whole days come from site_days: they stand when the per-page states are gone', async () => {
    const config = loadConfig({ CLICKHOUSE_URL: standIn.url }).analytics.clickhouse!;
    const client = openClickHouse(config);
    const range = { from: START, to: START + 7 * DAY_MS };
    const page = { limit: 1000, offset: 0 };
    const expected = await embedded.visitors(project, range, page);
    const daily = await embedded.dailyVisitors(project, range);
    try {
      await client.command({
        query: `ALTER TABLE ${config.database}.page_days DELETE WHERE project = {project:String}`,
        query_params: { project },
        clickhouse_settings: { mutations_sync: '2' },
      });
      expect((await clickhouse.visitors(project, range, page)).totals).toEqual(expected.totals);
      expect(expected.totals.total).toBeGreaterThan(0);
      expect(await clickhouse.dailyVisitors(project, range)).toEqual(daily);
      // the per-page rows did read page_days: gone with it
      expect((await clickhouse.visitors(project, range, page)).rows).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('the data set is not trivial: every class, several pages and days', async () => {
    const week = await embedded.visitors(project, RANGES[0]!, { limit: 1000, offset: 0 });
    expect(week.totals.human).toBeGreaterThan(5);
    expect(week.totals.ai).toBeGreaterThan(0);
    expect(week.totals.total).toBeLessThan(week.totals.human + week.totals.ai + 1);
    expect(week.rows.map((r) => r.path)).toContain('/docs/ünïcode/日本');
    const agents = await embedded.aiAgents(project, RANGES[0]!);
    expect(agents.spoofed.map((a) => a.agent)).toEqual(['GPTBot']);
    const purposes = await embedded.aiPurposes(project, RANGES[0]!);
    expect(purposes.totals.views.trainingViews).toBeGreaterThan(0);
    expect(purposes.totals.views.unverifiedAiViews).toBeGreaterThan(0);
    expect(purposes.totals.visitors.searchIndexViews).toBeGreaterThan(0);
    const referrals = await embedded.aiReferrals(project, RANGES[0]!);
    expect(referrals.assistants.map((a) => a.assistant).sort()).toEqual(['ChatGPT', 'Perplexity']);
    expect(agents.agents.map((a) => a.agent).sort()).toEqual(['ClaudeBot', 'GPTBot', 'OAI-SearchBot']);
    const robots = await embedded.aiRobots(project, RANGES[0]!);
    const broken = (standing: 'verified' | 'unverified' | 'spoofed') =>
      robots.agents.reduce((n, a) => n + a[standing].views, 0);
    expect(broken('verified')).toBeGreaterThan(0);
    expect(broken('spoofed')).toBeGreaterThan(0);
    const coverage = await embedded.aiCoverage(project, RANGES[0]!, SECTIONS);
    expect(coverage.rows.some((r) => r.pagesRead > 1)).toBe(true);
    // the humans assistants sent, per page beside the crawlers' views
    const referred = coverage.crawlToReferral.flatMap((c) => c.pages).filter((p) => p.referrals > 0);
    expect(referred.length).toBeGreaterThan(0);
  });
});

describe.each(PROVIDERS)('ClickHouse reports with views waiting in the outbox, primary database %s', (provider) => {
  const embeddedDb = useTestDatabase(provider);
  const primary = useTestDatabase(provider);
  const project = `prj_waiting_${provider}`;
  let embedded: Analytics;
  let clickhouse: Analytics;
  let sql: Sql;
  const outbox = () =>
    sql.query<{ id: unknown; batch: string | null }>('SELECT "id", "batch" FROM "AnalyticsOutbox" ORDER BY "id"');
  beforeAll(async () => {
    const logger = createLogger('silent');
    const clock = () => new Date(START + 10 * DAY_MS);
    const config = loadConfig({ CLICKHOUSE_URL: standIn.url, SCRIBE_AI_RANGES_FILE: RANGES_FILE }).analytics;
    const common = { secret: SECRET, logger, clock, autoFold: false };
    embedded = new Analytics({ ...common, target: embeddedDb.target, config: { ...config, clickhouse: undefined } });
    // no shipping but the test's: half the views reach ClickHouse, the rest wait in the outbox
    clickhouse = new Analytics({ ...common, target: primary.target, config });
    sql = openSql(primary.target);
    const batches = dataSet();
    for (const [i, batch] of batches.entries()) {
      await Promise.all([embedded.ingest(project, batch), clickhouse.ingest(project, batch)]);
      if (i === 5) await clickhouse.shipToClickHouse();
    }
    await embedded.fold();
    for (const analytics of [embedded, clickhouse])
      for (const [seenAt, content] of ROBOTS)
        await analytics.importRobotsTxt({ projectId: project, host: 'docs.example.com', content, seenAt });
  });
  afterAll(async () => {
    await sql.close();
    await embedded.close();
    await clickhouse.close();
  });

  it('a report adds them to what ClickHouse holds, exactly, and leaves the outbox as it was', async () => {
    const before = await outbox();
    expect(before.length).toBeGreaterThan(100);
    for (const range of RANGES) {
      const page = { limit: 1000, offset: 0 };
      expect({ range, page: await clickhouse.visitors(project, range, page) }).toEqual({
        range,
        page: await embedded.visitors(project, range, page),
      });
      expect(await clickhouse.views(project, range, page)).toEqual(await embedded.views(project, range, page));
      expect(await clickhouse.dailyVisitors(project, range)).toEqual(await embedded.dailyVisitors(project, range));
      expect(await clickhouse.aiAgents(project, range)).toEqual(await embedded.aiAgents(project, range));
      expect(await clickhouse.aiReferrals(project, range)).toEqual(await embedded.aiReferrals(project, range));
      expect(await clickhouse.aiPurposes(project, range)).toEqual(await embedded.aiPurposes(project, range));
      for (const by of ['agent', 'operator'] as const) {
        expect(await clickhouse.aiAgentPages(project, range, by, page)).toEqual(
          await embedded.aiAgentPages(project, range, by, page),
        );
      }
    }
    expect(await outbox()).toEqual(before);
  });

  it('the page story and ai/robots, ai/coverage add them too, exactly, and leave the outbox as it was', async () => {
    const before = await outbox();
    const waiting = await sql.query<{ path: string; kind: unknown }>(
      'SELECT "path", "kind" FROM "AnalyticsOutbox" WHERE "projectId" = ?',
      [project],
    );
    // the waiting views reach every page, and AI agents' among them
    const week = await embedded.visitors(project, RANGES[0]!, { limit: 1000, offset: 0 });
    const paths = week.rows.map((r) => r.path);
    const waitingPaths = new Set(waiting.map((v) => v.path));
    expect(waitingPaths.size).toBeGreaterThan(2);
    expect(paths).toEqual(expect.arrayContaining([...waitingPaths]));
    expect(waiting.some((v) => Number(v.kind) === 2)).toBe(true);
    const [story, storyAt] = [clickhouse.problemSignals(), embedded.problemSignals()];
    for (const range of RANGES) {
      for (const path of paths) {
        const traffic = await story.pageTraffic({ projectId: project, path, range });
        expect({ range, path, traffic }).toEqual({
          range,
          path,
          traffic: await storyAt.pageTraffic({ projectId: project, path, range }),
        });
        if (range === RANGES[0]) expect(traffic.totals.human + traffic.totals.ai).toBeGreaterThan(0);
      }
      expect(await clickhouse.aiRobots(project, range)).toEqual(await embedded.aiRobots(project, range));
      expect(await clickhouse.aiCoverage(project, range, SECTIONS)).toEqual(
        await embedded.aiCoverage(project, range, SECTIONS),
      );
    }
    expect(await outbox()).toEqual(before);
  });

  it('while a shipment has named some of them (ClickHouse may hold them already) a report waits, then asks for a retry', async () => {
    const range = RANGES[0]!;
    const page = { limit: 1000, offset: 0 };
    const [first] = await outbox();
    await sql.run('UPDATE "AnalyticsOutbox" SET "batch" = ? WHERE "id" = ?', ['outbox:in-flight', Number(first!.id)]);
    await expect(clickhouse.visitors(project, range, page)).rejects.toMatchObject({
      message: 'Page views of the range are being shipped to ClickHouse; try again',
      retryAfterSeconds: 1,
    });
    // the shipment's end: the batch is sent (under its token) and deleted, and the report answers from ClickHouse
    expect(await clickhouse.shipToClickHouse()).toBeGreaterThan(0);
    expect(await outbox()).toEqual([]);
    expect(await clickhouse.visitors(project, range, page)).toEqual(await embedded.visitors(project, range, page));
  });
});

describe.each(PROVIDERS)('a ClickHouse database Scribe refuses, primary database %s', (provider) => {
  const primary = useTestDatabase(provider);

  it('is named by /readyz and by the reports (503), keeps views in the outbox, and is used once emptied', async () => {
    const base = loadConfig({ CLICKHOUSE_URL: standIn.url }).analytics;
    const database = `${standIn.database}_refused_${provider}`;
    const client = openClickHouse(base.clickhouse!);
    const logged: string[] = [];
    const logger = createLogger(
      'error',
      new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    );
    let analytics: Analytics | undefined;
    try {
      await olderClickHouseDatabase(client, database, 2);
      const clock = () => new Date(START + 10 * DAY_MS);
      analytics = new Analytics({
        target: primary.target,
        secret: SECRET,
        config: { ...base, clickhouse: { ...base.clickhouse!, database } },
        logger,
        clock,
      });
      const view = { timestamp: START + HOUR_MS, url: '/docs/start', userAgent: CHROME, visitorId: 'r', key: 'k1' };
      expect(await analytics.ingest('prj_refused', [view])).toMatchObject({ accepted: 1 });
      const refused = `ClickHouse (CLICKHOUSE_URL) answers, but its database is refused: ${OLDER_VISITOR_IDS}`;
      await waitFor(async () => 'error' in (await analytics!.readiness()), 'start-up to refuse the database');
      expect(await analytics.readiness()).toEqual({ error: `${refused}; 1 page view(s) wait in the outbox` });
      const range = { from: START, to: START + DAY_MS };
      const report = analytics.visitors('prj_refused', range, { limit: 10, offset: 0 });
      await expect(report).rejects.toBeInstanceOf(Unavailable);
      await expect(report).rejects.toMatchObject({ message: refused, retryAfterSeconds: undefined });
      expect(logged.filter((line) => line.includes('the ClickHouse database is refused'))).toHaveLength(1);
      // the hash-id views are gone (an operator emptied the table in place): the next shipment (the background
      // retry's or this one) migrates and ships
      await client.command({ query: `TRUNCATE TABLE ${database}.page_views` });
      await analytics.shipToClickHouse();
      expect(await analytics.readiness()).toEqual({ ready: { clickhouse: { outbox: 0 } } });
      const page = await analytics.visitors('prj_refused', range, { limit: 10, offset: 0 });
      expect(page.rows).toEqual([{ path: '/docs/start', human: 1, ai: 0, total: 1 }]);
    } finally {
      await analytics?.close();
      await client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
      await client.close();
    }
  });
});
