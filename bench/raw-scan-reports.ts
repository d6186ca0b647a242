/**
 * Every report as the code answered it on 2026-11-24 (commit cb0348e), before issue 20's rollups: grouped scans of
 * the raw rows in the range, copied here (SQL and shaping) so bench/analytics.ts can time today's answer beside the
 * served one in the same run and check both say the same, whatever the reports read later. Each function returns
 * the route's JSON body (default paging) or, for the CSV, its text.
 *
 * `ai/purposes` and `ai/agent-pages` add the distinct-visitor counts of their parts as the code did then (issue 20 §2
 * makes every `visitors` figure a distinct count over its whole cell). On the bench's site the two agree: a visitor
 * number gives one address and one user agent, so every visitor id has one class and one agent.
 */
import type { Sql } from '../src/analytics/store/sql.js';
import type { TimeRange } from '../src/calendar.js';
import { aiKindOf, operatorOf } from '../src/analytics/ingest/classify-user-agent.js';
import { aiRobots } from '../src/analytics/reports/ai-robots.js';
import { aiCoverage } from '../src/analytics/reports/ai-coverage.js';
import { robotsReaders, robotsVersions } from '../src/analytics/store/robots-txt.js';
import { robotsFetches } from '../src/analytics/store/robots-fetches.js';
import { NAVIGATION } from './site.js';

const DAY = 86_400_000;
const HUMAN = 1;
const AI = 2;
const BOT = 0;
const UNVERIFIED_PREFIX = 'unverified ';
const VIA_PREFIX = 'via ';
const LIMIT = 50;

type Count = number | string;
export interface RawScan {
  sql: Sql;
  projectId: string;
  range: TimeRange;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
function offsetPage<Row>(rows: readonly Row[], limit = LIMIT) {
  return { rows: rows.slice(0, limit), hasMore: limit < rows.length };
}

async function paths(s: RawScan): Promise<Map<number, string>> {
  const rows = await s.sql.query<{ id: Count; path: string }>(
    'SELECT "id", "path" FROM "AnalyticsPage" WHERE "projectId" = ?',
    [s.projectId],
  );
  return new Map(rows.map((r) => [Number(r.id), r.path]));
}

/** GET …/visitors: COUNT(DISTINCT …) per page and site-wide (as test/support/naive-visitors.ts). */
export async function visitorsExport(s: RawScan) {
  type Counts = { human: Count; ai: Count; total: Count };
  const where = 'e."projectId" = ? AND e."ts" >= ? AND e."ts" < ? AND e."kind" > 0';
  const counts = `COUNT(DISTINCT CASE WHEN e."kind" = 1 THEN e."visitorId" END) AS human,
    COUNT(DISTINCT CASE WHEN e."kind" = 2 THEN e."visitorId" END) AS ai, COUNT(DISTINCT e."visitorId") AS total`;
  const collate = s.sql.provider === 'postgresql' ? ' COLLATE "C"' : '';
  const rows = await s.sql.query<Counts & { path: string }>(
    `SELECT p."path" AS path, ${counts} FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
     WHERE ${where} GROUP BY p."path" ORDER BY total DESC, p."path"${collate} ASC LIMIT ?`,
    [s.projectId, s.range.from, s.range.to, LIMIT + 1],
  );
  const [totals] = await s.sql.query<Counts>(`SELECT ${counts} FROM "AnalyticsEvent" e WHERE ${where}`, [
    s.projectId,
    s.range.from,
    s.range.to,
  ]);
  const num = (c: Counts) => ({ human: Number(c.human), ai: Number(c.ai), total: Number(c.total) });
  return {
    totals: num(totals),
    visitors: rows.slice(0, LIMIT).map((r) => ({ path: r.path, ...num(r) })),
    hasMore: rows.length > LIMIT,
  };
}

/** GET …/views: COUNT(*) per page and class. */
export async function views(s: RawScan) {
  const rows = await s.sql.query<{ pageId: Count; kind: Count; n: Count }>(
    `SELECT "pageId" AS "pageId", "kind" AS "kind", COUNT(*) AS n FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0 GROUP BY "pageId", "kind"`,
    [s.projectId, s.range.from, s.range.to],
  );
  const names = await paths(s);
  const totals = { human: 0, ai: 0, total: 0 };
  const pages = new Map<number, { human: number; ai: number; total: number }>();
  for (const r of rows) {
    const id = Number(r.pageId);
    let c = pages.get(id);
    if (!c) pages.set(id, (c = { human: 0, ai: 0, total: 0 }));
    const field = Number(r.kind) === HUMAN ? 'human' : 'ai';
    c[field] += Number(r.n);
    c.total += Number(r.n);
    totals[field] += Number(r.n);
    totals.total += Number(r.n);
  }
  const list = [...pages].map(([id, c]) => ({ path: names.get(id) ?? `#${id}`, ...c }));
  list.sort((a, b) => b.total - a.total || compare(a.path, b.path));
  const { rows: page, hasMore } = offsetPage(list);
  return { totals, views: page, hasMore };
}

/** GET …/visitors/daily: COUNT(DISTINCT …) per UTC day. */
export async function dailyVisitors(s: RawScan) {
  const rows = await s.sql.query<{ day: Count; human: Count; ai: Count; total: Count }>(
    `SELECT "ts" / ${DAY} AS day, COUNT(DISTINCT CASE WHEN "kind" = 1 THEN "visitorId" END) AS human,
       COUNT(DISTINCT CASE WHEN "kind" = 2 THEN "visitorId" END) AS ai, COUNT(DISTINCT "visitorId") AS total
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0 GROUP BY "ts" / ${DAY}`,
    [s.projectId, s.range.from, s.range.to],
  );
  const byDay = new Map(rows.map((r) => [Number(r.day), r]));
  const days = [];
  for (let start = Math.floor(s.range.from / DAY) * DAY; start < s.range.to; start += DAY) {
    const r = byDay.get(start / DAY);
    days.push({
      date: new Date(start).toISOString().slice(0, 10),
      human: Number(r?.human ?? 0),
      ai: Number(r?.ai ?? 0),
      total: Number(r?.total ?? 0),
    });
  }
  return { days };
}

/**
 * GET …/agents (src/analytics/store/read-events.ts agentCounts, reports/ai-agents.ts), with the fields the report
 * gained since (issue 19 §2) counted the same way: a visitor seen verified once is verified; spoofed user agents are
 * the bots named "unverified <agent>".
 */
export async function agents(s: RawScan) {
  const rows = await s.sql.query<{
    agent: string | null;
    visitors: Count;
    verified: Count;
    views: Count;
    signature: Count;
    ipRange: Count;
    reverseDns: Count;
  }>(
    `SELECT "agent" AS agent, COUNT(DISTINCT "visitorId") AS visitors,
            COUNT(DISTINCT CASE WHEN "verification" IN (1, 3, 4) THEN "visitorId" END) AS verified, COUNT(*) AS views,
            SUM(CASE WHEN "verification" = 4 THEN 1 ELSE 0 END) AS "signature",
            SUM(CASE WHEN "verification" = 1 THEN 1 ELSE 0 END) AS "ipRange",
            SUM(CASE WHEN "verification" = 3 THEN 1 ELSE 0 END) AS "reverseDns"
         FROM "AnalyticsEvent"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${AI}
        GROUP BY "agent"`,
    [s.projectId, s.range.from, s.range.to],
  );
  const spoofedRows = await s.sql.query<{ agent: string; visitors: Count; views: Count }>(
    `SELECT "agent" AS agent, COUNT(DISTINCT "visitorId") AS visitors, COUNT(*) AS views
         FROM "AnalyticsEvent"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = 0 AND "agent" LIKE 'unverified %'
        GROUP BY "agent"`,
    [s.projectId, s.range.from, s.range.to],
  );
  const byCounts = (a: { agent: string; visitors: number; views: number }, b: typeof a) =>
    b.visitors - a.visitors || b.views - a.views || (a.agent < b.agent ? -1 : 1);
  const list = rows
    .map((r) => ({
      agent: r.agent ?? 'unknown',
      kind: aiKindOf(r.agent ?? '') ?? 'unknown',
      visitors: Number(r.visitors),
      verifiedVisitors: Number(r.verified),
      unverifiableVisitors: Number(r.visitors) - Number(r.verified),
      views: Number(r.views),
      verifiedViews: {
        signature: Number(r.signature),
        ipRange: Number(r.ipRange),
        reverseDns: Number(r.reverseDns),
      },
    }))
    .sort(byCounts);
  const spoofed = spoofedRows
    .map((r) => ({ agent: r.agent.slice('unverified '.length), visitors: Number(r.visitors), views: Number(r.views) }))
    .sort(byCounts);
  return { agents: list, spoofed };
}

// ai/purposes (src/analytics/store/ai-traffic-queries.ts purposeRows, reports/ai-purposes.ts)

interface PurposeRow {
  pageId: Count | null;
  kind: Count;
  agent: string | null;
  views: Count;
  visitors: Count;
}

const PURPOSE_OF_KIND = { search: 'searchIndex', crawler: 'training', assistant: 'assistant', agent: 'agent' } as const;
const purposeOf = (agent: string | null) => {
  const kind = agent === null ? undefined : aiKindOf(agent);
  return kind ? PURPOSE_OF_KIND[kind] : 'other';
};
const zero = () => ({
  humanViews: 0,
  aiViews: 0,
  searchIndexViews: 0,
  trainingViews: 0,
  assistantViews: 0,
  agentViews: 0,
  otherAiViews: 0,
  totalViews: 0,
  unverifiedAiViews: 0,
});
type PurposeCounts = ReturnType<typeof zero>;

function addPurpose(counts: PurposeCounts, kind: number, agent: string | null, n: number): void {
  if (kind === BOT) {
    counts.unverifiedAiViews += n;
    return;
  }
  counts.totalViews += n;
  if (kind === HUMAN) {
    counts.humanViews += n;
    return;
  }
  counts.aiViews += n;
  const purpose = purposeOf(agent);
  if (purpose === 'searchIndex') counts.searchIndexViews += n;
  else if (purpose === 'training') counts.trainingViews += n;
  else {
    counts.otherAiViews += n;
    if (purpose === 'assistant') counts.assistantViews += n;
    if (purpose === 'agent') counts.agentViews += n;
  }
}

async function purposeSplit(s: RawScan) {
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND ("kind" IN (${HUMAN}, ${AI}) OR ("kind" = ${BOT} AND "agent" LIKE '${UNVERIFIED_PREFIX}%'))`;
  const args = [s.projectId, s.range.from, s.range.to];
  const agentColumn = `CASE WHEN "kind" <> ${HUMAN} THEN "agent" END`;
  const [byPage, site] = await Promise.all([
    s.sql.query<PurposeRow>(
      `SELECT "pageId" AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "pageId", "kind", ${agentColumn}`,
      args,
    ),
    s.sql.query<PurposeRow>(
      `SELECT NULL AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "kind", ${agentColumn}`,
      args,
    ),
  ]);
  const totals = { views: zero(), visitors: zero() };
  for (const r of site) {
    addPurpose(totals.views, Number(r.kind), r.agent, Number(r.views));
    addPurpose(totals.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const pages = new Map<number, { views: PurposeCounts; visitors: PurposeCounts }>();
  for (const r of byPage) {
    const id = Number(r.pageId);
    let page = pages.get(id);
    if (!page) pages.set(id, (page = { views: zero(), visitors: zero() }));
    addPurpose(page.views, Number(r.kind), r.agent, Number(r.views));
    addPurpose(page.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const names = await paths(s);
  const rows = [...pages].map(([id, c]) => ({ path: names.get(id) ?? `#${id}`, ...c }));
  rows.sort((a, b) => b.views.totalViews - a.views.totalViews || compare(a.path, b.path));
  return { totals, pages: rows };
}

/** AI views by how they were verified, and the spoofed ones (src/analytics/reports/ai-verification.ts). */
async function verificationViews(s: RawScan) {
  const [r] = await s.sql.query<{ [k in 'signature' | 'ipRange' | 'reverseDns' | 'unverifiable' | 'spoofed']: Count }>(
    `SELECT SUM(CASE WHEN "kind" = ${AI} AND "verification" = 4 THEN 1 ELSE 0 END) AS "signature",
            SUM(CASE WHEN "kind" = ${AI} AND "verification" = 1 THEN 1 ELSE 0 END) AS "ipRange",
            SUM(CASE WHEN "kind" = ${AI} AND "verification" = 3 THEN 1 ELSE 0 END) AS "reverseDns",
            SUM(CASE WHEN "kind" = ${AI} AND "verification" = 2 THEN 1 ELSE 0 END) AS "unverifiable",
            SUM(CASE WHEN "kind" = 0 AND "agent" LIKE 'unverified %' THEN 1 ELSE 0 END) AS "spoofed"
       FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?`,
    [s.projectId, s.range.from, s.range.to],
  );
  return {
    signature: Number(r.signature ?? 0),
    ipRange: Number(r.ipRange ?? 0),
    reverseDns: Number(r.reverseDns ?? 0),
    unverifiable: Number(r.unverifiable ?? 0),
    spoofed: Number(r.spoofed ?? 0),
  };
}

/** GET …/ai/purposes */
export async function purposes(s: RawScan) {
  const split = await purposeSplit(s);
  const { rows: pages, hasMore } = offsetPage(split.pages);
  return { totals: split.totals, pages, hasMore, verification: await verificationViews(s) };
}

const CSV_COLUMNS = [
  'humanViews',
  'aiViews',
  'searchIndexViews',
  'trainingViews',
  'otherAiViews',
  'totalViews',
] as const;
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** GET …/ai/purposes?format=csv (src/http/routes/analytics-ai.ts sendCsv) */
export async function purposesCsv(s: RawScan): Promise<string> {
  const { pages } = await purposeSplit(s);
  const lines = [
    ['path', ...CSV_COLUMNS].join(','),
    ...pages.map((r) => [csvField(r.path), ...CSV_COLUMNS.map((c) => r.views[c])].join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** GET …/ai/agent-pages (by agent) */
export async function agentPages(s: RawScan, by: 'agent' | 'operator' = 'agent') {
  const rows = await s.sql.query<{ agent: string | null; pageId: Count; views: Count; visitors: Count }>(
    `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${AI}
      GROUP BY "agent", "pageId"`,
    [s.projectId, s.range.from, s.range.to],
  );
  const names = await paths(s);
  const merged = new Map<string, { agent: string; path: string; views: number; visitors: number }>();
  for (const r of rows) {
    const name = r.agent ?? 'unknown';
    const agent = by === 'operator' ? operatorOf(name) : name;
    const path = names.get(Number(r.pageId)) ?? `#${r.pageId}`;
    const key = `${agent}\0${path}`;
    const row = merged.get(key) ?? { agent, path, views: 0, visitors: 0 };
    row.views += Number(r.views);
    row.visitors += Number(r.visitors);
    merged.set(key, row);
  }
  const list = [...merged.values()].sort(
    (a, b) => b.views - a.views || compare(a.agent, b.agent) || compare(a.path, b.path),
  );
  return offsetPage(list);
}

/** GET …/ai/referrals */
export async function referrals(s: RawScan) {
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${HUMAN} AND "agent" IS NOT NULL`;
  const args = [s.projectId, s.range.from, s.range.to];
  type Row = { agent: string; pageId?: Count; views: Count; visitors: Count };
  const [byAssistant, byPage] = await Promise.all([
    s.sql.query<Row>(
      `SELECT "agent" AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent"`,
      args,
    ),
    s.sql.query<Row>(
      `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent", "pageId"`,
      args,
    ),
  ]);
  const name = (agent: string) => agent.replace(/^via /, '');
  const names = await paths(s);
  const assistants = byAssistant
    .map((r) => ({ assistant: name(r.agent), views: Number(r.views), visitors: Number(r.visitors) }))
    .sort((a, b) => b.views - a.views || compare(a.assistant, b.assistant));
  const pages = byPage
    .map((r) => ({
      assistant: name(r.agent),
      path: names.get(Number(r.pageId)) ?? `#${r.pageId}`,
      views: Number(r.views),
      visitors: Number(r.visitors),
    }))
    .sort((a, b) => b.views - a.views || compare(a.assistant, b.assistant) || compare(a.path, b.path));
  const { rows, hasMore } = offsetPage(pages);
  return { assistants, pages: rows, hasMore };
}

/** GET …/ai/misses (src/analytics/store/ai-misses.ts aiMissCounts, reports/ai-misses.ts) */
export async function misses(s: RawScan) {
  const rows = await s.sql.query<{ path: string; agent: string; status: Count; count: Count }>(
    `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", COUNT(*) AS "count" FROM "AnalyticsAiMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
    [s.projectId, s.range.from, s.range.to],
  );
  const list = rows
    .map((r) => ({ path: r.path, agent: r.agent, status: Number(r.status), count: Number(r.count) }))
    .sort((a, b) => b.count - a.count || compare(a.path, b.path) || compare(a.agent, b.agent) || a.status - b.status);
  return offsetPage(list);
}

const binary = (sql: Sql) => (sql.provider === 'sqlite' ? 'BINARY' : '"C"');
async function latestId(sql: Sql, table: string): Promise<number> {
  const [row] = await sql.query<{ top: unknown }>(`SELECT MAX("id") AS top FROM "${table}"`);
  return Number(row.top ?? 0);
}

/**
 * GET …/feedback/by-page, first page (src/analytics/signals/store/feedback-counts-by-page.ts). Read from the
 * feedback table itself: with no status changes stored (the bench makes none) the listing's as-of source is that table.
 */
export async function feedbackByPage(s: RawScan) {
  const limit = 10;
  const votes = `"source" IN ('contextual', 'thumbs_only')`;
  const snapshot = await latestId(s.sql, 'AnalyticsFeedback');
  const rows = await s.sql.query<Record<string, unknown>>(
    `SELECT "path", SUM(CASE WHEN ${votes} AND "helpful" = 1 THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN ${votes} AND "helpful" = 0 THEN 1 ELSE 0 END) AS down, ` +
      `SUM(CASE WHEN "source" = 'code_snippet' THEN 1 ELSE 0 END) AS code, COUNT(*) AS total FROM "AnalyticsFeedback" ` +
      `WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ? GROUP BY "path" ORDER BY total DESC, "path" COLLATE ${binary(s.sql)} ASC LIMIT ?`,
    [s.projectId, s.range.from, s.range.to, snapshot, limit + 1],
  );
  const feedback = rows.slice(0, limit).map((r) => ({
    path: String(r.path),
    thumbsUp: Number(r.up),
    thumbsDown: Number(r.down),
    code: Number(r.code),
    total: Number(r.total),
  }));
  return { feedback, hasMore: rows.length > limit };
}

/** GET …/searches, first page (src/analytics/signals/list-searches.ts, store/search-terms.ts) */
export async function searches(s: RawScan) {
  const snapshot = await latestId(s.sql, 'AnalyticsSearch');
  const where = '"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ?';
  const values = [s.projectId, s.range.from, s.range.to, snapshot];
  const terms = (
    await s.sql.query<{ query: string; hits: unknown; last: unknown }>(
      `SELECT "query", COUNT(*) AS hits, MAX("ts") AS last FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NULL ` +
        `GROUP BY "query" ORDER BY hits DESC, "query" COLLATE ${binary(s.sql)} ASC LIMIT ?`,
      [...values, LIMIT + 1],
    )
  ).map((t) => ({ query: t.query, hits: Number(t.hits), last: Number(t.last) }));
  const page = terms.slice(0, LIMIT);
  const clicks = page.length
    ? await s.sql.query<{ query: string; path: string; n: unknown }>(
        `SELECT "query", "clickedPath" AS path, COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NOT NULL ` +
          `AND "query" IN (${page.map(() => '?').join(', ')}) GROUP BY "query", "clickedPath"`,
        [...values, ...page.map((t) => t.query)],
      )
    : [];
  const [total] = await s.sql.query<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NULL`,
    values,
  );
  return {
    searches: page.map((t) => {
      const mine = clicks
        .filter((c) => c.query === t.query)
        .map((c) => ({ path: c.path, clicks: Number(c.n) }))
        .sort((a, b) => b.clicks - a.clicks || compare(a.path, b.path));
      const clicked = mine.reduce((n, c) => n + c.clicks, 0);
      return {
        searchQuery: t.query,
        hits: t.hits,
        ctr: Math.round(Math.min(1, clicked / t.hits) * 10_000) / 10_000,
        topClickedPage: mine[0]?.path ?? null,
        lastSearchedAt: new Date(t.last).toISOString(),
      };
    }),
    totalSearches: Number(total.n),
    hasMore: terms.length > LIMIT,
  };
}

/**
 * Every AI view (and spoofed AI user agent's) of the range with its time and path, one row each: what the robots.txt
 * and coverage reports read before they answered from the agent rollup (issue 37's first version).
 */
async function aiViewRows(s: RawScan, options: { referred?: boolean } = {}) {
  // the humans an assistant sent
  const sent = options.referred ? ` OR (e."kind" = ${HUMAN} AND e."agent" LIKE '${VIA_PREFIX}%')` : '';
  const rows = await s.sql.query<{
    ts: Count;
    path: string;
    kind: Count;
    agent: string | null;
    verification: Count | null;
  }>(
    `SELECT e."ts" AS "ts", p."path" AS "path", e."kind" AS "kind", e."agent" AS "agent", e."verification" AS "verification"
       FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
      WHERE e."projectId" = ? AND e."ts" >= ? AND e."ts" < ?
        AND (e."kind" = ${AI} OR (e."kind" = ${BOT} AND e."agent" LIKE '${UNVERIFIED_PREFIX}%')${sent})`,
    [s.projectId, s.range.from, s.range.to],
  );
  return rows.map((r) => ({
    ts: Number(r.ts),
    path: r.path,
    kind: Number(r.kind),
    agent: r.agent ?? '',
    verification: r.verification === null ? null : Number(r.verification),
  }));
}

/** GET …/ai/robots: each view judged by the robots.txt version in force at its own time (reports/ai-robots.ts). */
export async function robots(s: RawScan) {
  const [versions, views, readers, fetches] = await Promise.all([
    robotsVersions(s.sql, s.projectId),
    aiViewRows(s),
    robotsReaders(s.sql, s.projectId),
    robotsFetches(s.sql, s.projectId),
  ]);
  return aiRobots({ versions, views, readers, fetches });
}

/** GET …/ai/coverage over the bench site's navigation (bench/site.ts NAVIGATION, as the bench server serves it). */
export async function coverage(s: RawScan) {
  const views = await aiViewRows(s, { referred: true });
  return { commit: 'bench', ...aiCoverage({ sections: NAVIGATION, views }) };
}
