import { Analytics } from '../../src/analytics/analytics.js';
import { naiveVisitors } from '../support/naive-visitors.js';
import { openSql, type Sql } from '../../src/analytics/store/sql.js';
import type { PageView } from '../../src/analytics/ingest/prepare-event.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../support/databases.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

function randomViews(random: () => number, n: number, fromDay: number, days: number): PageView[] {
  return Array.from({ length: n }, () => {
    const v = Math.floor(random() * 60);
    const view: PageView = {
      timestamp: START + (fromDay + random() * days) * DAY,
      url: `/p${Math.floor(random() * random() * 25)}`,
      userAgent: UAS[Math.floor(random() * UAS.length)],
    };
    // a third of the traffic identifies itself, so one visitor shows up as human and as AI
    if (v % 3 === 0) view.visitorId = `u${v}`;
    else view.ip = `198.51.100.${v}`;
    return view;
  });
}

describe.each(PROVIDERS)('derived day sets agree with COUNT(DISTINCT) over raw events on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'consistency-secret-consistency-secret-00',
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64 },
      logger: createLogger('silent'),
      clock: () => new Date(START + 60 * DAY),
      autoFold: false,
    });
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  async function compare(projectId: string, from: number, to: number) {
    const range = { from, to };
    const ours = await analytics.visitors(projectId, range, { limit: 250, offset: 0 });
    const naive = await naiveVisitors({ sql, projectId, range, limit: 250, offset: 0 });
    expect({ from: new Date(from), to: new Date(to), totals: ours.totals, rows: ours.rows }).toEqual({
      from: new Date(from),
      to: new Date(to),
      totals: naive.totals,
      rows: naive.visitors,
    });
  }

  it('for day and instant ranges, across later ingests into past days and several projects', async () => {
    const random = rng(7);
    for (const projectId of ['prj_a', 'prj_b']) {
      const result = await analytics.ingest(projectId, randomViews(random, 1500, 0, 40));
      expect(result.rejected).toEqual([]);
    }
    const ranges: [number, number][] = [
      [START, START + 40 * DAY],
      [START + 3 * DAY, START + 33 * DAY],
      [START + 16 * DAY, START + 32 * DAY],
      [START + 5 * DAY + 3_600_000, START + 29 * DAY + 7_200_000],
      [START + 10.5 * DAY, START + 10.75 * DAY],
    ];
    for (const [from, to] of ranges) await compare('prj_a', from, to);
    // late events for days already folded and cached: the unions over them must be rebuilt
    await analytics.ingest('prj_a', randomViews(random, 400, 14, 6));
    for (const [from, to] of ranges) await compare('prj_a', from, to);
    for (const [from, to] of ranges) await compare('prj_b', from, to);
  });
});
