import fs from 'node:fs';
import { DAY_MS, HOUR_MS } from '../../src/calendar.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsBreakdownRoutes } from '../../src/http/routes/analytics-breakdowns.js';
import { analyticsAiRoutes } from '../../src/http/routes/analytics-ai.js';
import { problemRoutesFor } from '../support/problem-routes.js';
import { analyticsRobotsRoutes } from '../../src/http/routes/analytics-robots.js';
import type { Analytics } from '../../src/analytics/analytics.js';
import { PROVIDERS, type Provider } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../support/clickhouse-server.js';
import { seeded, writeRangesFile } from '../support/ai-traffic.js';
import {
  BOTS_ONLY_PATH,
  MULTI_BYTE_PATHS,
  PAGE_PATHS,
  NOW,
  at,
  firstWave,
  secondWave,
  type ServerEvent,
  type TrackerHit,
  type Wave,
} from '../support/comparison-traffic.js';

/**
 * Issue 17, point 3: with CLICKHOUSE_URL set, every analytics endpoint answers what the embedded store answers for
 * the same events. Two whole HTTP apps per primary database — one on the embedded store, one on ClickHouse (the
 * stand-in) — are given one data set through the public ingestion endpoints, and every analytics GET is asked of
 * both over many ranges: same status, same JSON once keys are sorted, CSV byte for byte.
 */

/** A range as the query names it; absent bounds take the API's defaults (dateTo now, dateFrom 30 days before). */
interface RangeQuery {
  name: string;
  dateFrom?: string;
  dateTo?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const between = (name: string, from: number, to: number): RangeQuery => ({
  name,
  dateFrom: iso(from),
  dateTo: iso(to),
});

/** Named ranges: whole and partial days, the defaults, empty ranges and every way to touch midnight. */
const FIXED_RANGES: RangeQuery[] = [
  between('all days with views', at(-20), at(7)),
  between('the whole days 0 to 6', at(0), at(6)),
  between('some whole days', at(1), at(4)),
  between('one day', at(2), at(3)),
  { name: 'one day, as dates', dateFrom: '2026-11-13', dateTo: '2026-11-14' },
  { name: 'whole days named in another zone', dateFrom: '2026-11-11T01:00:00+01:00', dateTo: '2026-11-13T00:00Z' },
  between('partial days on both sides', at(1, HOUR_MS), at(4, 2 * HOUR_MS)),
  between('inside one day', at(2, 1000), at(2, 50_000_000)),
  { name: 'the default range (30 days to now)' },
  { name: 'only dateTo (30 days before it)', dateTo: iso(at(4)) },
  { name: 'only dateFrom (to now)', dateFrom: iso(at(3)) },
  between('today up to now', at(6), NOW),
  between('an empty range long before', at(-40), at(-39)),
  between('an empty range between the days', at(-10, 5), at(-5, 7)),
  between('midnight to 1 ms after', at(3), at(3, 1)),
  between('1 ms before midnight to midnight', at(3, -1), at(3)),
  between('1 ms either side of midnight', at(3, -1), at(3, 1)),
  between('from 1 ms before midnight', at(2, -1), at(5)),
  between('to 1 ms after midnight', at(1), at(4, 1)),
  between('from 1 ms after midnight to 1 ms before', at(1, 1), at(5, -1)),
  between('the second before midnight', at(4, -1000), at(4)),
  between('now (the tracker hits) to 2 minutes ahead', NOW, NOW + 120_000),
  // ClickHouse's Date ends on 2149-06-06: whole days past it must still be read as the embedded store reads them
  { name: 'past the last day of ClickHouse dates', dateFrom: '2026-11-11T12:00:00Z', dateTo: '2200-01-01' },
];

/** Random ranges over the data's days, a third of their bounds on midnight. */
function randomRanges(count: number): RangeQuery[] {
  const next = seeded(3_17);
  const bound = (day: number) => (next(3) === 0 ? at(day) : at(day, next(DAY_MS)));
  return Array.from({ length: count }, (_, i) => {
    const from = bound(next(9) - 2);
    const to = Math.max(from + 1, bound(Math.floor((from - at(0)) / DAY_MS) + next(5)));
    return between(`random range ${i + 1}`, from, to);
  });
}

const RANGES = [...FIXED_RANGES, ...randomRanges(25)];

type Request = { report: string; query?: string; accept?: string };

/**
 * Every analytics GET the API serves, asked over every range. The AI reports are asked for up to 250 rows, so their
 * whole answers are compared; the visitors and views exports page inside each store, so several pages are asked.
 */
const REQUESTS: Request[] = [
  { report: 'visitors' },
  { report: 'visitors', query: 'limit=3&offset=3' },
  { report: 'visitors', query: 'offset=100' },
  { report: 'views' },
  { report: 'views', query: 'limit=2&offset=1' },
  { report: 'visitors/daily' },
  { report: 'agents' },
  { report: 'ai/purposes', query: 'limit=250' },
  { report: 'ai/purposes', query: 'format=csv' },
  { report: 'ai/agent-pages', query: 'limit=250' },
  { report: 'ai/agent-pages', query: 'by=operator&limit=250' },
  { report: 'ai/referrals', query: 'limit=250' },
  { report: 'ai/misses', query: 'limit=250' },
  { report: 'ai/robots' },
];

/**
 * Asked over the fixed ranges only: the AI reports page in the route, after the store answered (so a page is a
 * slice of an answer compared whole above), and the CSV asked for by `Accept` is the one asked for by `format`.
 */
const MORE_REQUESTS: Request[] = [
  { report: 'visitors', query: 'limit=3' },
  { report: 'ai/purposes', query: 'limit=2&offset=1' },
  { report: 'ai/purposes', accept: 'text/csv' },
  { report: 'ai/agent-pages', query: 'by=agent&limit=3&offset=2' },
  { report: 'ai/referrals', query: 'limit=1&offset=1' },
  { report: 'ai/misses', query: 'limit=2&offset=1' },
];

/**
 * The problems queue and each page's story (the page's visitors per day, its agents and referrals read where the
 * views are kept), asked over the fixed ranges. The docs' pages are given, so missing URLs get redirect candidates.
 */
const PAGE_REQUESTS: Request[] = [
  { report: 'problems', query: 'limit=100' },
  ...[...PAGE_PATHS, BOTS_ONLY_PATH, '/never-read'].map((path) => ({
    report: 'page',
    query: `path=${encodeURIComponent(path)}`,
  })),
];

/** Compared before the late wave too (the late wave must change what they count). */
const BEFORE_LATE_RANGES = [0, 3, 6, 8, 16].map((i) => FIXED_RANGES[i]!);

/** Ranges and parameters every report must refuse, the same way on both stores. */
const BAD_QUERIES: { report: string; query: string }[] = [
  ...[
    'visitors',
    'views',
    'visitors/daily',
    'agents',
    'ai/purposes',
    'ai/agent-pages',
    'ai/referrals',
    'ai/misses',
    'ai/robots',
  ].flatMap((report) => [
    { report, query: `dateFrom=${iso(at(4))}&dateTo=${iso(at(2))}` },
    { report, query: `dateFrom=${iso(at(3))}&dateTo=${iso(at(3))}` },
    { report, query: 'dateFrom=2026-02-30&dateTo=2026-03-02' },
    { report, query: 'dateFrom=yesterday' },
    { report, query: 'dateTo=2026-11-12T25:00:00Z' },
    { report, query: 'dateFrom=2026-11-12T10:00:00' },
  ]),
  { report: 'visitors', query: 'limit=0' },
  { report: 'views', query: 'limit=251' },
  { report: 'visitors/daily', query: 'dateFrom=2024-01-01&dateTo=2026-01-01' },
  { report: 'ai/purposes', query: 'format=xml' },
  { report: 'ai/agent-pages', query: 'by=page' },
  { report: 'ai/misses', query: 'offset=-1' },
];

/** An answer as compared: the status, the headers that carry meaning, and the body in its compared form. */
interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

/**
 * A JSON body with every object's keys sorted, recursively: key order is no part of the contract, array order is
 * (each report documents its rows' order), so arrays keep theirs. Nothing is dropped: no analytics body carries a
 * value that may legitimately differ between two servers (the request id travels in a header, not compared).
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

async function answer(response: Response): Promise<Answer> {
  const type = response.headers.get('content-type');
  const bytes = Buffer.from(await response.arrayBuffer());
  // JSON after sorting keys; CSV (and anything not JSON) byte for byte: as its text when that is the exact UTF-8 of
  // its bytes (readable in a failure's diff), else as the bytes themselves
  const text = bytes.toString('utf8');
  const body = type?.startsWith('application/json')
    ? JSON.stringify(sortedKeys(JSON.parse(text)))
    : Buffer.from(text, 'utf8').equals(bytes)
      ? text
      : `base64:${bytes.toString('base64')}`;
  return {
    status: response.status,
    headers: {
      'content-type': type,
      'content-disposition': response.headers.get('content-disposition'),
      'retry-after': response.headers.get('retry-after'),
    },
    body,
  };
}

/** One app and its project, as the comparison uses it. */
interface Side {
  app: TestApp;
  analytics: Analytics;
  projectId: string;
  writeKey: string;
  readKey: string;
}

/** robots.txt versions of the site's host: one before the views, one from mid-day, one from a midnight */
const ROBOTS: [number, string][] = [
  [at(-30), 'User-agent: GPTBot\nDisallow: /docs/\n'],
  [at(1) + 5 * 3_600_000, 'User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /api/\n'],
  [at(3), 'User-agent: *\nDisallow: /docs/\n'],
];

async function startSide(params: { provider: Provider; env: Record<string, string> }): Promise<Side> {
  let analytics: Analytics | undefined;
  const app = await startTestApp({
    provider: params.provider,
    // the analytics route modules as main.ts mounts them
    routes: (ctx) => {
      analytics = ctx.analytics;
      return [
        analyticsRoutes(ctx),
        analyticsBreakdownRoutes(ctx),
        analyticsAiRoutes(ctx),
        analyticsRobotsRoutes(ctx),
        problemRoutesFor({
          analytics: ctx.analytics,
          pages: PAGE_PATHS.map((path) => ({ path, file: `docs${path}.mdx`, title: path.split('/').at(-1) ?? path })),
        }),
      ];
    },
    env: params.env,
    clock: () => new Date(NOW),
  });
  const projectId = (await app.project()).id;
  for (const [seenAt, content] of ROBOTS)
    await analytics!.importRobotsTxt({ projectId, host: 'docs.example.com', content, seenAt });
  return {
    app,
    analytics: analytics!,
    projectId,
    writeKey: await app.key(projectId, 'write'),
    readKey: await app.key(projectId, 'read'),
  };
}

const get = (side: Side, report: string, query: string, accept?: string) =>
  fetch(`${side.app.url}/v1/analytics/${side.projectId}/${report}${query ? `?${query}` : ''}`, {
    headers: { authorization: `Bearer ${side.readKey}`, ...(accept ? { accept } : {}) },
  }).then(answer);

const post = (side: Side, what: 'events' | 'logs', body: string, type: string) =>
  fetch(`${side.app.url}/v1/analytics/${side.projectId}/${what}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.writeKey}`, 'content-type': type },
    body,
  }).then(answer);

const track = (side: Side, hit: TrackerHit) =>
  fetch(`${side.app.url}/api/event`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': hit.userAgent, 'x-forwarded-for': hit.ip },
    body: JSON.stringify({ projectId: side.projectId, url: hit.url, referrer: hit.referrer }),
  }).then(answer);

const rangeQuery = (range: RangeQuery) =>
  [
    range.dateFrom && `dateFrom=${encodeURIComponent(range.dateFrom)}`,
    range.dateTo && `dateTo=${encodeURIComponent(range.dateTo)}`,
  ].filter(Boolean) as string[];

let standIn: ClickHouseStandIn;
let ranges: { dir: string; file: string };
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
  ranges = writeRangesFile();
});
afterAll(async () => {
  await standIn.close();
  fs.rmSync(ranges.dir, { recursive: true, force: true });
});

describe.each(PROVIDERS)(
  'every analytics endpoint answers on ClickHouse as on the embedded store, on %s',
  (provider) => {
    let embedded: Side;
    let clickhouse: Side;
    /** every ingestion answer of the embedded app, in order (the ClickHouse app's were equal, checked as sent) */
    const ingested: { what: 'events' | 'logs'; status: number; body: Record<string, unknown> }[] = [];
    const firstWaveTotals: { views?: number } = {};

    beforeAll(async () => {
      // no reverse DNS: the two apps would race their own lookups (and the test must not need a network)
      const env = {
        SCRIBE_AI_RANGES_FILE: ranges.file,
        SCRIBE_AI_REVERSE_DNS: 'off',
        // tracker hits come from many addresses, not the test's one
        SCRIBE_TRUSTED_PROXY_HEADER: 'x-forwarded-for',
      };
      [embedded, clickhouse] = await Promise.all([
        startSide({ provider, env }),
        startSide({ provider, env: { ...env, CLICKHOUSE_URL: standIn.url } }),
      ]);
    });
    afterAll(async () => {
      await embedded?.app.close();
      await clickhouse?.app.close();
    });

    /** Sends a wave to both apps, one request at a time, and checks both answered each alike. */
    async function ingest(wave: Wave) {
      const requests = [
        ...wave.batches.map((batch: ServerEvent[]) => ['events', JSON.stringify(batch), 'application/json'] as const),
        ...wave.logs.map((log) => ['logs', log, 'text/plain'] as const),
      ];
      for (const [what, body, type] of requests) {
        const [a, b] = await Promise.all([post(embedded, what, body, type), post(clickhouse, what, body, type)]);
        expect(b).toEqual(a);
        ingested.push({ what, status: a.status, body: JSON.parse(a.body) });
      }
      for (const hit of wave.hits) {
        const [a, b] = await Promise.all([track(embedded, hit), track(clickhouse, hit)]);
        expect(b).toEqual(a);
        expect(a.status).toBe(202);
      }
    }

    /**
     * Asks both apps each request over each range: the requests whose answers differ (with both answers), how many
     * were compared and how many of those held rows (a CSV more than its header line).
     */
    async function compare(over: RangeQuery[], requests: Request[]) {
      const differences: { request: string; embedded: Answer; clickhouse: Answer }[] = [];
      let compared = 0;
      let withRows = 0;
      for (const range of over) {
        for (const { report, query, accept } of requests) {
          const q = [...rangeQuery(range), ...(query ? [query] : [])].join('&');
          const [a, b] = await Promise.all([get(embedded, report, q, accept), get(clickhouse, report, q, accept)]);
          compared++;
          const csv = a.headers['content-type']?.startsWith('text/csv');
          const rows = csv
            ? a.body.split('\r\n').length > 2
            : /"(visitors|views|pages|rows|days|agents|problems)":\[\{/.test(a.body);
          if (a.status === 200 && rows) withRows++;
          if (JSON.stringify(a) !== JSON.stringify(b)) {
            const accepting = accept ? ` (Accept: ${accept})` : '';
            differences.push({ request: `${report}?${q}${accepting} [${range.name}]`, embedded: a, clickhouse: b });
          }
        }
      }
      return { differences, compared, withRows };
    }

    it('ingests one data set alike: duplicates, late events, refused events and logs with misses', async () => {
      const first = firstWave();
      const second = secondWave(first);
      await ingest(first);
      // the first wave folded (embedded), shipped or waiting in the outbox (ClickHouse) before the late wave
      const before = await get(embedded, 'views', rangeQuery(FIXED_RANGES[0]!).join('&'));
      firstWaveTotals.views = (JSON.parse(before.body) as { totals: { total: number } }).totals.total;
      expect((await compare(BEFORE_LATE_RANGES, REQUESTS)).differences).toEqual([]);
      await ingest(second);

      const events = ingested.filter((i) => i.what === 'events').map((i) => i.body);
      const logs = ingested.filter((i) => i.what === 'logs').map((i) => i.body);
      expect(ingested.every((i) => i.status === 202)).toBe(true);
      // retried batches and logs: their keys were claimed, in the first wave and across the fold
      const keyed = (batch: ServerEvent[]) => batch.filter((e) => e.id !== undefined).length;
      expect([events[5]!.duplicates, events[9]!.duplicates, events[10]!.duplicates]).toEqual(
        [first.batches[0]!, first.batches[1]!, second.batches[0]!].map(keyed),
      );
      expect(keyed(first.batches[0]!)).toBeGreaterThan(100);
      expect((events[4]!.rejected as { error: string }[]).map((r) => r.error)).toEqual(['timestamp: is in the future']);
      expect(logs.map((l) => l.errors)).toEqual([[], [], []]);
      expect(logs[0]!.duplicates).toBe(0);
      expect(logs[2]!.duplicates).toBe(logs[0]!.accepted);
      expect(logs.every((l) => (l.skipped as Record<string, number>)['status 404']! > 0)).toBe(true);
    });

    it(`answers every analytics GET alike over ${RANGES.length} ranges`, async () => {
      const every = await compare(RANGES, REQUESTS);
      const more = await compare(FIXED_RANGES, MORE_REQUESTS);
      expect(every.differences.slice(0, 3)).toEqual([]);
      expect(more.differences.slice(0, 3)).toEqual([]);
      expect([every.differences.length, more.differences.length]).toEqual([0, 0]);
      // most answers hold rows: the comparison is not of empty reports
      expect(every.withRows).toBeGreaterThan(every.compared * 0.75);
      expect(more.withRows).toBeGreaterThan(more.compared * 0.5);
    }, 300_000); // some 1,000 requests to each side: minutes on a loaded machine

    it("answers the problems queue and every page's story alike", async () => {
      const { differences, compared, withRows } = await compare(FIXED_RANGES, PAGE_REQUESTS);
      expect(differences.slice(0, 2)).toEqual([]);
      expect(differences.length).toBe(0);
      expect(withRows).toBeGreaterThan(compared * 0.4);
      // the stories hold traffic: visitors on both sides of a page that humans and AI agents read
      const all = rangeQuery(FIXED_RANGES[0]!).join('&');
      const story = JSON.parse((await get(clickhouse, 'page', `${all}&path=/docs/start`)).body) as {
        totals: { human: number; ai: number };
        agents: unknown[];
      };
      expect(story.totals.human).toBeGreaterThan(0);
      expect(story.totals.ai).toBeGreaterThan(0);
      expect(story.agents.length).toBeGreaterThan(0);
      const problems = JSON.parse((await get(clickhouse, 'problems', `${all}&limit=100`)).body) as {
        problems: { kind: string }[];
      };
      expect(problems.problems.map((p) => p.kind)).toContain('missing-page');
    }, 120_000);

    it("counts a docs pull request's outcome windows alike", async () => {
      // every fixed range with both bounds, as an outcome's windows; each page, pages read together, a moved page
      const windows = FIXED_RANGES.filter((r) => r.dateFrom && r.dateTo).map((r) => ({
        from: Date.parse(r.dateFrom!),
        to: Date.parse(r.dateTo!),
      }));
      const paths = [...PAGE_PATHS.slice(0, 3), BOTS_ONLY_PATH, '/never-read'];
      const query = {
        paths,
        urls: ['/docs/gelöscht', '/never-missed'],
        together: [[PAGE_PATHS[0]!, PAGE_PATHS[1]!], ['/never-read', PAGE_PATHS[1]!], PAGE_PATHS.slice(2)],
        ranges: windows,
      };
      const plain = (counts: Awaited<ReturnType<Analytics['outcomeCounts']>>) =>
        counts.map((w) => ({ ...w, pages: Object.fromEntries(w.pages), misses: Object.fromEntries(w.misses) }));
      const [a, b] = await Promise.all([
        embedded.analytics.outcomeCounts({ ...query, projectId: embedded.projectId }),
        clickhouse.analytics.outcomeCounts({ ...query, projectId: clickhouse.projectId }),
      ]);
      expect(plain(b)).toEqual(plain(a));
      // not a comparison of zeros: humans, AI agents and referred humans are counted, together fewer than summed
      const all = a[0]!;
      expect(all.total.human).toBeGreaterThan(0);
      expect(all.total.ai).toBeGreaterThan(0);
      // AI visitors of more than one purpose, each within the AI visitors in all
      const purposes = Object.values(all.total.aiByPurpose);
      expect(purposes.filter((n) => n > 0).length).toBeGreaterThan(1);
      expect(Math.max(...purposes)).toBeLessThanOrEqual(all.total.ai);
      expect(Math.max(...a.map((w) => w.total.referred))).toBeGreaterThan(0);
      const first = all.pages.get(PAGE_PATHS[0]!)!;
      const second = all.pages.get(PAGE_PATHS[1]!)!;
      expect(all.together![0]!.human).toBeLessThan(first.human + second.human);
      expect(all.together![0]!.human).toBeGreaterThanOrEqual(Math.max(first.human, second.human));
    });

    it('answers the widest range a query may name alike', async () => {
      // the embedded store walks its days one by one (about a second a request over 8,000 years), so a few reports
      const widest = { name: 'the widest range', dateFrom: '1970-01-01', dateTo: '9999-12-31T23:59:59.999Z' };
      const requests: Request[] = [
        { report: 'visitors' },
        { report: 'agents' },
        { report: 'ai/purposes', query: 'format=csv' },
        { report: 'ai/agent-pages', query: 'by=operator&limit=250' },
      ];
      const { differences, withRows } = await compare([widest], requests);
      expect(differences).toEqual([]);
      expect(withRows).toBe(requests.length);
    });

    it('refuses bad ranges and parameters alike', async () => {
      for (const { report, query } of BAD_QUERIES) {
        const [a, b] = await Promise.all([get(embedded, report, query), get(clickhouse, report, query)]);
        expect({ request: `${report}?${query}`, ...b }).toEqual({ request: `${report}?${query}`, ...a });
        expect(a.status).toBe(400);
      }
    });

    it('compared a data set that is not trivial: every class of traffic, late views, misses, multi-byte paths', async () => {
      const all = rangeQuery(FIXED_RANGES[0]!).join('&');
      const read = async <T>(report: string, query = all) => JSON.parse((await get(embedded, report, query)).body) as T;
      const views = await read<{ totals: { human: number; ai: number; total: number }; views: { path: string }[] }>(
        'views',
        `${all}&limit=250`,
      );
      expect(views.totals.human).toBeGreaterThan(100);
      expect(views.totals.ai).toBeGreaterThan(100);
      expect(views.totals.total).toBeGreaterThan(firstWaveTotals.views!); // the late wave counts
      const paths = views.views.map((v) => v.path);
      for (const path of [...MULTI_BYTE_PATHS, '/llms.txt', '/q"uote']) expect(paths).toContain(path);

      const visitors = await read<{ totals: { human: number; ai: number; total: number } }>('visitors');
      // a visitor id seen as a browser and as an AI agent counts once in the total
      expect(visitors.totals.total).toBeLessThan(visitors.totals.human + visitors.totals.ai);

      const agents = await read<{
        agents: { agent: string; verifiedVisitors: number; unverifiableVisitors: number }[];
        spoofed: { agent: string }[];
      }>('agents');
      const agent = (name: string) => agents.agents.find((a) => a.agent === name);
      expect(agent('GPTBot')?.verifiedVisitors).toBeGreaterThan(0);
      expect(agent('ClaudeBot')?.unverifiableVisitors).toBeGreaterThan(0);
      expect(agent('unidentified agent')).toBeDefined(); // raw Markdown read by a browser's user agent
      expect(agents.spoofed.map((s) => s.agent)).toEqual(['GPTBot']);

      type Columns = Record<string, number>;
      const purposes = await read<{ totals: { views: Columns }; pages: { path: string; views: Columns }[] }>(
        'ai/purposes',
      );
      for (const column of ['searchIndexViews', 'trainingViews', 'assistantViews', 'agentViews', 'unverifiedAiViews'])
        expect(purposes.totals.views[column]).toBeGreaterThan(0);
      // a page only bots and spoofed agents read: no views export row, a purposes row of unverified views only
      expect(paths).not.toContain(BOTS_ONLY_PATH);
      expect(purposes.pages.find((p) => p.path === BOTS_ONLY_PATH)?.views).toMatchObject({
        totalViews: 0,
        unverifiedAiViews: expect.any(Number),
      });
      expect(purposes.pages.find((p) => p.path === BOTS_ONLY_PATH)!.views.unverifiedAiViews).toBeGreaterThan(0);

      const referrals = await read<{ assistants: { assistant: string }[] }>('ai/referrals');
      expect(referrals.assistants.map((a) => a.assistant).sort()).toEqual(['ChatGPT', 'Perplexity']);

      const misses = await read<{ rows: { status: number; path: string }[] }>('ai/misses', `${all}&limit=250`);
      expect(new Set(misses.rows.map((r) => r.status))).toEqual(new Set([404, 410, 503]));
      expect(misses.rows.map((r) => r.path)).toContain('/docs/gelöscht');

      // the tracker's hits, stamped by the clock: humans and AI agents (bots and spoofed agents are dropped)
      const tracked = await read<{ totals: { human: number; ai: number } }>(
        'views',
        `dateFrom=${iso(NOW)}&dateTo=${iso(NOW + 1)}`,
      );
      expect(tracked.totals.human).toBeGreaterThan(5);
      expect(tracked.totals.ai).toBeGreaterThan(5);

      // views exactly at midnight and 1 ms either side of it
      for (const offset of [-1, 0, 1]) {
        let total = 0;
        for (let day = 1; day <= 6; day++) {
          const query = `dateFrom=${iso(at(day, offset))}&dateTo=${iso(at(day, offset + 1))}`;
          total += (await read<{ totals: { total: number } }>('views', query)).totals.total;
        }
        expect(total).toBeGreaterThan(0);
      }
    });
  },
);
