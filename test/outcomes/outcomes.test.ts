import fs from 'node:fs';
import type { RouteModule } from '../../src/http/app.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { agentJobRoutes } from '../../src/http/routes/agent-jobs.js';
import { outcomeRoutes } from '../../src/http/routes/outcomes.js';
import { createJobEventNotifier } from '../../src/jobs/job-event-notifier.js';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { createJob } from '../../src/jobs/job-store.js';
import { createOutcomes, SUMMARY_READS, type Outcomes } from '../../src/outcomes/outcomes.js';
import type { Outcome } from '../../src/outcomes/compute-outcome.js';
import type { PullRequestFile } from '../../src/outcomes/changed-pages.js';
import { recordDocsMerge } from '../../src/outcomes/merge-store.js';
import { noVisitors, type WindowCounts } from '../../src/analytics/reports/outcome-counts.js';
import { assignJob, settleJob } from '../../src/problems/problem-store.js';
import { fixCause } from '../../src/problems/fix-cause.js';
import { getProject } from '../../src/projects/projects.js';
import { DAY_MS } from '../../src/calendar.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';
import { GPTBOT_RANGE, writeRangesFile } from '../support/ai-traffic.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
/** AI agents of two more purposes than GPTBot's (training): an assistant and an agent, with no published ranges */
const CHATGPT_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)';
const CLAUDE_CODE =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-Code/1.0; +https://example.com/bot)';
const SITE_FILES = ['docs/guides/setup.mdx', 'docs/guides/new.mdx', 'docs/guides/renamed.mdx', 'docs/index.mdx'];
const MERGED_AT = Date.UTC(2026, 9, 1); // 2026-10-01T00:00Z
const LIVE_AT = MERGED_AT + 10 * 60_000; // the default SCRIBE_DOCS_DEPLOY_DELAY
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Hit {
  ip: string;
  ua: string;
  path: string;
  status: number;
  ts: number;
  referer?: string;
}

const logLine = (h: Hit) => {
  const d = new Date(h.ts);
  const pad = (n: number) => String(n).padStart(2, '0');
  const at = `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
  return `${h.ip} - - [${at}] "GET ${h.path} HTTP/1.1" ${h.status} 512 "${h.referer ?? '-'}" "${h.ua}"`;
};

/** Seeded, so a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Synthetic traffic whose truth is known: /guides/setup's human readers double after the merge; /guides/old (moved
 * to /guides/renamed) and /guides/new (added) were 404s before and are not after; some GPTBot reads throughout, and
 * /guides/setup's ChatGPT-User readers (an assistant's) double after while Claude-Code's (an agent's) stay.
 * Humans come from a pool of addresses, so the same reader returns on several days (distinct counts must see that); GPTBot from its published range.
 */
function syntheticTraffic(seed: number): Hit[] {
  const next = random(seed);
  const nextAgent = random(seed + 1);
  const hits: Hit[] = [];
  const seen = new Set<string>();
  const add = (h: Hit) => {
    const key = `${h.ip}|${h.path}|${Math.floor(h.ts / 1000)}`;
    if (seen.has(key)) return;
    seen.add(key);
    hits.push({ ...h, ts: Math.floor(h.ts / 1000) * 1000 });
  };
  for (let day = -35; day < 35; day++) {
    const start = LIVE_AT + day * DAY_MS;
    const after = day >= 0;
    const human = () => `10.${1 + Math.floor(next() * 3)}.0.${1 + Math.floor(next() * 120)}`;
    for (let i = 0; i < (after ? 16 : 8); i++)
      add({ ip: human(), ua: CHROME, path: '/guides/setup', status: 200, ts: start + next() * DAY_MS });
    for (let i = 0; i < 3; i++)
      add({
        ip: human(),
        ua: CHROME,
        path: after ? '/guides/renamed' : '/guides/old',
        status: after ? 200 : 404,
        ts: start + next() * DAY_MS,
      });
    for (let i = 0; i < 2; i++)
      add({ ip: human(), ua: CHROME, path: '/guides/new', status: after ? 200 : 404, ts: start + next() * DAY_MS });
    add({
      ip: GPTBOT_RANGE.replace('0/24', String(1 + Math.floor(next() * 20))),
      ua: GPTBOT,
      path: '/guides/setup',
      status: 200,
      ts: start + next() * DAY_MS,
    });
    const agentIp = () => `198.18.0.${1 + Math.floor(nextAgent() * 30)}`;
    for (let i = 0; i < (after ? 2 : 1); i++)
      add({ ip: agentIp(), ua: CHATGPT_USER, path: '/guides/setup', status: 200, ts: start + nextAgent() * DAY_MS });
    add({ ip: agentIp(), ua: CLAUDE_CODE, path: '/guides/setup', status: 200, ts: start + nextAgent() * DAY_MS });
  }
  return hits;
}

/** The naive recount: straight from the lines sent. */
function recount(hits: Hit[], paths: string[], from: number, to: number) {
  const inRange = hits.filter((h) => h.ts >= from && h.ts < to);
  const views = inRange.filter((h) => h.status === 200 && paths.includes(h.path));
  return {
    human: new Set(views.filter((h) => h.ua === CHROME).map((h) => h.ip)).size,
    // a visitor is an address and a user agent: two agents from one address are two
    ai: new Set(views.filter((h) => h.ua !== CHROME).map((h) => `${h.ip} ${h.ua}`)).size,
    aiByPurpose: Object.fromEntries(
      (
        [
          ['training', GPTBOT],
          ['assistant', CHATGPT_USER],
          ['agent', CLAUDE_CODE],
        ] as const
      ).map(([purpose, ua]) => [purpose, new Set(views.filter((h) => h.ua === ua).map((h) => h.ip)).size]),
    ),
    misses: (url: string) => inRange.filter((h) => h.status === 404 && h.path === url).length,
  };
}

describe.each(PROVIDERS)('docs pull request outcomes on %s', (provider) => {
  let app: TestApp;
  let ranges: ReturnType<typeof writeRangesFile>;
  let now = new Date(LIVE_AT + 40 * DAY_MS);
  let outcomes: Outcomes;
  let prFiles: PullRequestFile[] = [];
  let projectId: string;
  let read: string;
  let write: string;

  const outcomesRoutes: RouteModule = (router, ctx) => {
    outcomes = createOutcomes({
      db: ctx.db,
      clock: ctx.clock,
      pages: async () => SITE_FILES,
      pullRequestFiles: async () => prFiles,
      counts: (query) => app.services.analytics.outcomeCounts(query),
      stamps: (projectId, span) => app.services.analytics.outcomeStamps(projectId, span),
      signals: (query) => app.services.analytics.outcomeSignals(query),
      queries: (query) => app.services.analytics.outcomeQueries(query),
      deployDelayMs: ctx.config.outcomes.deployDelayMs,
    });
    const jobs = createJobRequests({
      db: ctx.db,
      clock: ctx.clock,
      jobs: ctx.config.jobs,
      missing: [],
      wake: () => {},
    });
    const events = createJobEventNotifier({ db: ctx.db, database: ctx.database, logger: ctx.logger });
    agentJobRoutes({ jobs, events, outcomes })(router, ctx);
    outcomeRoutes({ outcomes })(router, ctx);
  };

  beforeAll(async () => {
    ranges = writeRangesFile();
    app = await startTestApp({
      provider,
      env: { SCRIBE_AI_RANGES_FILE: ranges.file, SCRIBE_AI_REVERSE_DNS: 'off' },
      clock: () => now,
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        outcomesRoutes,
      ],
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    now = new Date(LIVE_AT + 40 * DAY_MS);
    projectId = (await app.project()).id;
    read = await app.key(projectId, 'read');
    write = await app.key(projectId, 'write');
  });

  const get = async <T = any>(path: string, key = read) => {
    const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const importHits = async (hits: Hit[]) => {
    for (let i = 0; i < hits.length; i += 2000) {
      const sent = await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${write}`, 'content-type': 'text/plain' },
        body: `${hits
          .slice(i, i + 2000)
          .map(logLine)
          .join('\n')}\n`,
      });
      expect(sent.status).toBe(202);
    }
  };
  /** A job whose pull request edited setup, added new and moved old → renamed, merged at MERGED_AT (plus `shift`). */
  /** Site searches two days either side of the live time, a minute apart, sent at once. */
  const searchesAround = () => {
    const searches: { timestamp: string; query: string; clickedPath?: string }[] = [];
    return {
      search: (n: number, sign: 1 | -1, query: string, clickedPath?: string) => {
        for (let i = 0; i < n; i++)
          searches.push({
            timestamp: new Date(LIVE_AT + sign * (2 * DAY_MS + (searches.length + 1) * 60_000)).toISOString(),
            query,
            ...(clickedPath ? { clickedPath } : {}),
          });
      },
      sendSearches: async () => {
        const sent = await fetch(`${app.url}/v1/analytics/${projectId}/searches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
          body: JSON.stringify(searches),
        });
        expect(sent.status).toBe(202);
      },
    };
  };

  const mergedJob = async (
    params: { merged?: boolean; shift?: number; files?: PullRequestFile[]; cause?: unknown } = {},
  ) => {
    const { db, clock } = app.ctx;
    const job = await createJob({
      db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'fix the guides',
      cause: params.cause,
    });
    prFiles = params.files ?? [
      { filename: 'docs/guides/setup.mdx', status: 'modified' },
      { filename: 'docs/guides/new.mdx', status: 'added' },
      { filename: 'docs/guides/renamed.mdx', status: 'renamed', previousFilename: 'docs/guides/old.mdx' },
      { filename: 'docs/docs.json', status: 'modified' },
    ];
    await outcomes.onJobPullRequestClosed({
      jobId: job.id,
      projectId,
      repository: 'acme/docs',
      number: 7,
      merged: params.merged ?? true,
      mergedAt: new Date(MERGED_AT + (params.shift ?? 0)).toISOString(),
    });
    return job;
  };

  it('keeps the pages a merged pull request changed, by the paths the site serves, and measures them exactly', async () => {
    const hits = syntheticTraffic(provider === 'sqlite' ? 7 : 11);
    await importHits(hits);
    const job = await mergedJob();
    const { status, body } = await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`);
    expect(status).toBe(200);
    const outcome = body.outcome;
    expect(outcome).toMatchObject({
      mergedAt: new Date(MERGED_AT).toISOString(),
      liveAt: new Date(LIVE_AT).toISOString(),
    });
    expect(outcome.windows.map((w) => [w.days, w.status])).toEqual([
      [7, 'complete'],
      [14, 'complete'],
      [28, 'complete'],
    ]);
    const pages = ['/guides/new', '/guides/renamed', '/guides/setup'];
    for (const w of outcome.windows) {
      const span = w.days * DAY_MS;
      const before = recount(hits, pages, LIVE_AT - span, LIVE_AT);
      const after = recount(hits, pages, LIVE_AT, LIVE_AT + span);
      expect(w.total.humanVisitors).toMatchObject({ before: before.human, after: after.human });
      expect(w.total.aiVisitors).toMatchObject({ before: before.ai, after: after.ai });
      // by purpose: each agent's readers apart, none of a purpose no agent here reads for
      for (const purpose of ['training', 'assistant', 'agent'] as const) {
        expect(w.total.aiVisitorsByPurpose[purpose]).toMatchObject({
          before: before.aiByPurpose[purpose],
          after: after.aiByPurpose[purpose],
        });
        expect(after.aiByPurpose[purpose]).toBeGreaterThan(0);
      }
      expect(w.total.aiVisitorsByPurpose.searchIndex).toEqual({ before: 0, after: 0, ratio: null });
      expect(w.total.aiVisitorsByPurpose.other).toEqual({ before: 0, after: 0, ratio: null });
      expect(w.misses).toEqual([
        { url: '/guides/new', before: before.misses('/guides/new'), after: 0 },
        { url: '/guides/old', before: before.misses('/guides/old'), after: 0 },
      ]);
      for (const page of w.pages) {
        const b = recount(hits, [page.path], LIVE_AT - span, LIVE_AT);
        const a = recount(hits, [page.path], LIVE_AT, LIVE_AT + span);
        expect([page.path, page.humanVisitors.before, page.humanVisitors.after]).toEqual([page.path, b.human, a.human]);
      }
      const setup = w.pages.find((p) => p.path === '/guides/setup')!;
      expect(setup.change).toBe('edited');
      expect(setup.changes.traffic).toBe('improved');
      const setupBefore = recount(hits, ['/guides/setup'], LIVE_AT - span, LIVE_AT).human;
      const setupAfter = recount(hits, ['/guides/setup'], LIVE_AT, LIVE_AT + span).human;
      expect(setupAfter / setupBefore).toBeGreaterThan(1.5); // the traffic doubles, so the page must show it
      expect(setup.humanVisitors.ratio).toBeCloseTo(setupAfter / setupBefore, 10);
      expect(w.total.changes.misses).toBe('improved');
      expect(w.total.verdict).toBe('helped');
    }
    // readers of several changed pages count once for the whole: the total is not the pages' sum
    const month = outcome.windows[2];
    const summed = month.pages.reduce((n, p) => n + p.humanVisitors.after, 0);
    expect(month.total.humanVisitors.after).toBeLessThan(summed);
    expect(outcome.verdict).toBe('helped');
  });

  it('shows windows pending before live time and partial with their days so far, with no verdict yet', async () => {
    const hits = syntheticTraffic(3);
    await importHits(hits);
    now = new Date(MERGED_AT + 5 * 60_000);
    const job = await mergedJob();
    let outcome = (await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`)).body.outcome;
    expect(outcome.verdict).toBe('pending');
    expect(outcome.windows.every((w) => w.status === 'pending' && w.daysSoFar === 0)).toBe(true);

    now = new Date(LIVE_AT + 3.5 * DAY_MS);
    outcome = (await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`)).body.outcome;
    expect(outcome.windows.map((w) => [w.status, w.daysSoFar, w.total.verdict])).toEqual([
      ['partial', 3, 'pending'],
      ['partial', 3, 'pending'],
      ['partial', 3, 'pending'],
    ]);
    const [seven] = outcome.windows;
    expect(seven.after.to).toBe(now.toISOString());
    const soFar = recount(hits, ['/guides/new', '/guides/renamed', '/guides/setup'], LIVE_AT, now.getTime());
    expect(seven.total.humanVisitors.after).toBe(soFar.human);

    now = new Date(LIVE_AT + 10 * DAY_MS);
    outcome = (await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`)).body.outcome;
    expect(outcome.windows.map((w) => w.status)).toEqual(['complete', 'partial', 'partial']);
    expect(outcome.verdict).toBe(outcome.windows[0].total.verdict);
  });

  it('compares thumbs, the humans assistants sent and the click-through of the searches that led to the pages', async () => {
    const hits: Hit[] = [];
    const referred = (n: number, sign: 1 | -1, net: number) => {
      for (let i = 0; i < n; i++)
        hits.push({
          ip: `10.7.${net}.${i + 1}`,
          ua: CHROME,
          path: '/guides/setup',
          status: 200,
          ts: LIVE_AT + sign * (DAY_MS + i * 60_000),
          referer: i % 2 ? 'https://chatgpt.com/c/1' : 'https://www.perplexity.ai/search',
        });
    };
    referred(5, -1, 1);
    referred(12, 1, 2);
    // a reader who came on their own is no referral
    hits.push({ ip: '10.7.3.1', ua: CHROME, path: '/guides/setup', status: 200, ts: LIVE_AT + DAY_MS });
    await importHits(hits);
    const { search, sendSearches } = searchesAround();
    search(10, -1, 'install');
    search(2, -1, 'install', '/guides/setup');
    search(4, 1, 'install');
    search(8, 1, 'install', '/guides/setup');
    search(5, 1, 'pricing');
    search(1, 1, 'pricing', '/pricing');
    await sendSearches();
    // thumbs: 3 up and 9 down before, 10 up and 2 down after, one vote on another page; comments: 2 of the votes
    // before, 4 after and one comment without a vote
    const votes = [
      ...Array.from({ length: 12 }, (_, i) => ({ sign: -1, helpful: i < 3, path: '/guides/setup', said: i < 2 })),
      ...Array.from({ length: 12 }, (_, i) => ({ sign: 1, helpful: i < 10, path: '/guides/setup', said: i >= 8 })),
      { sign: 1, helpful: false, path: '/pricing', said: true },
      { sign: 1, helpful: undefined, path: '/guides/setup', said: true },
    ].map((v, i) => ({
      timestamp: new Date(LIVE_AT + v.sign * (3 * DAY_MS + i * 60_000)).toISOString(),
      path: v.path,
      ...(v.helpful === undefined ? {} : { helpful: v.helpful }),
      ...(v.said ? { comment: `comment ${i}` } : {}),
    }));
    const voted = await fetch(`${app.url}/v1/analytics/${projectId}/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
      body: JSON.stringify(votes),
    });
    expect(voted.status).toBe(202);
    const job = await mergedJob({ files: [{ filename: 'docs/guides/setup.mdx', status: 'modified' }] });
    const { body } = await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`);
    const [seven] = body.outcome.windows;
    expect([seven.total.thumbsUp, seven.total.thumbsDown]).toEqual([
      { before: 3, after: 10 },
      { before: 9, after: 2 },
    ]);
    expect(seven.total.comments).toEqual({ before: 2, after: 5 });
    expect(seven.pages[0].comments).toEqual({ before: 2, after: 5 });
    expect(seven.pages[0].helpfulShare).toEqual({ before: 3 / 12, after: 10 / 12 });
    expect(seven.total.changes.helpful).toBe('improved');
    expect(seven.total.assistantReferrals).toEqual({ before: 5, after: 12, ratio: null });
    expect(seven.pages[0].assistantReferrals).toMatchObject({ before: 5, after: 12 });
    expect(seven.searches).toEqual({
      queries: ['install'],
      before: { searches: 12, clicks: 2, clickThrough: 2 / 12 },
      after: { searches: 12, clicks: 8, clickThrough: 8 / 12 },
      gaps: [], // the job was not started from the problems queue
    });
  });

  it('says too little traffic to tell instead of a ratio below the minimum of readers', async () => {
    const hits: Hit[] = [];
    for (let i = 0; i < 10; i++) {
      hits.push({
        ip: `10.9.0.${i + 1}`,
        ua: CHROME,
        path: '/guides/setup',
        status: 200,
        ts: LIVE_AT - DAY_MS - i * 1000,
      });
      hits.push({
        ip: `10.9.1.${i + 1}`,
        ua: CHROME,
        path: '/guides/setup',
        status: 200,
        ts: LIVE_AT + DAY_MS + i * 1000,
      });
    }
    await importHits(hits);
    const job = await mergedJob({ files: [{ filename: 'docs/guides/setup.mdx', status: 'modified' }] });
    const { body } = await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`);
    const [seven] = body.outcome.windows;
    expect(seven.total.humanVisitors).toEqual({ before: 10, after: 10, ratio: null });
    expect(seven.total.verdict).toBe('too little traffic to tell');
    expect(body.outcome.verdict).toBe('too little traffic to tell');
  });

  it('answers outcome null until the pull request merges, and nothing for a pull request closed unmerged', async () => {
    const job = await mergedJob({ merged: false });
    const { status, body } = await get(`/v2/agent/${projectId}/job/${job.id}`);
    expect(status).toBe(200);
    expect(body.outcome).toBeNull();
    expect(body).toMatchObject({ id: job.id, prLink: null });
  });

  it('moves the problems a merged fix claimed to verified when their signal improved', async () => {
    await importHits(syntheticTraffic(5));
    const job = await mergedJob();
    const { db, clock } = app.ctx;
    await assignJob({
      db,
      clock,
      projectId,
      problems: [
        { id: 'p-miss', kind: 'missing-page' },
        { id: 'p-feedback', kind: 'negative-feedback' },
      ],
      jobId: job.id,
    });
    await settleJob({ db, clock, jobId: job.id, merged: true });
    await get(`/v2/agent/${projectId}/job/${job.id}`);
    // a read moves nothing: the sweep does
    expect((await db.problemState.findMany({ where: { projectId } })).map((s) => s.status)).toEqual(['fixed', 'fixed']);
    await outcomes.sweep();
    const states = await db.problemState.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
    // misses stopped: verified; no thumbs at all: the feedback problem stays fixed
    expect(states.map((s) => [s.id, s.status])).toEqual([
      ['p-feedback', 'fixed'],
      ['p-miss', 'verified'],
    ]);
  });

  it("judges the search gaps a fix was started from by their own queries' click-through, not by traffic", async () => {
    // the pages' human readers double after the merge: a gap judged by traffic would be verified
    await importHits(syntheticTraffic(5));
    const { search, sendSearches } = searchesAround();
    // no click into the pages before, 9 of 12 after: improved
    search(12, -1, 'install on windows');
    search(3, 1, 'install on windows');
    search(9, 1, 'install on windows', '/guides/setup');
    // 8 of 12 before, 1 of 12 after: worse
    search(4, -1, 'proxy');
    search(8, -1, 'proxy', '/guides/setup');
    search(11, 1, 'proxy');
    search(1, 1, 'proxy', '/guides/setup');
    // three searches before: too few to tell, however many clicks after
    search(3, -1, 'sso');
    search(12, 1, 'sso', '/guides/setup');
    await sendSearches();
    const gaps = ['install on windows', 'proxy', 'sso'].map((query, i) => ({ id: `p-gap-${i}`, query }));
    // the cause the problems queue records for a fix of these gaps
    const cause = fixCause(
      gaps.map(({ id, query }) => ({
        id,
        kind: 'search-gap' as const,
        title: `Searches for "${query}" lead nowhere`,
        paths: [],
        readers: 12,
        previousReaders: 0,
        firstSeen: LIVE_AT - 3 * DAY_MS,
        lastSeen: LIVE_AT - 2 * DAY_MS,
        evidence: { query, searches: 12, clicks: 0 },
      })),
    );
    const job = await mergedJob({ cause, files: [{ filename: 'docs/guides/setup.mdx', status: 'modified' }] });
    const { db, clock } = app.ctx;
    await assignJob({
      db,
      clock,
      projectId,
      problems: gaps.map(({ id }) => ({ id, kind: 'search-gap' })),
      jobId: job.id,
    });
    await settleJob({ db, clock, jobId: job.id, merged: true });
    const { body } = await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`);
    const [seven] = body.outcome.windows;
    expect(seven.total.changes.traffic).toBe('improved');
    // the gaps' queries come first, measured whether or not they led into the pages
    expect(seven.searches.queries.slice(0, 3)).toEqual(['install on windows', 'proxy', 'sso']);
    const side = (searches: number, clicks: number) => ({ searches, clicks, clickThrough: clicks / searches });
    expect(seven.searches.gaps).toEqual([
      { problem: 'p-gap-0', query: 'install on windows', before: side(12, 0), after: side(12, 9), change: 'improved' },
      { problem: 'p-gap-1', query: 'proxy', before: side(12, 8), after: side(12, 1), change: 'worse' },
      { problem: 'p-gap-2', query: 'sso', before: side(3, 0), after: side(12, 12), change: 'too little data' },
    ]);
    await outcomes.sweep();
    const states = await db.problemState.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
    expect(states.map((s) => [s.id, s.status])).toEqual([
      ['p-gap-0', 'verified'],
      ['p-gap-1', 'regressed'],
      ['p-gap-2', 'fixed'],
    ]);
  });

  it('judges a page whose readers halve regressed, and moves a stale-page problem fixed by it to regressed', async () => {
    const hits: Hit[] = [];
    for (let i = 0; i < 80; i++)
      hits.push({
        ip: `10.8.0.${i + 1}`,
        ua: CHROME,
        path: '/guides/setup',
        status: 200,
        ts: LIVE_AT - DAY_MS - i * 1000,
      });
    for (let i = 0; i < 40; i++)
      hits.push({
        ip: `10.8.1.${i + 1}`,
        ua: CHROME,
        path: '/guides/setup',
        status: 200,
        ts: LIVE_AT + DAY_MS + i * 1000,
      });
    await importHits(hits);
    const job = await mergedJob({ files: [{ filename: 'docs/guides/setup.mdx', status: 'modified' }] });
    const { db, clock } = app.ctx;
    await assignJob({ db, clock, projectId, problems: [{ id: 'p-stale', kind: 'stale-page' }], jobId: job.id });
    await settleJob({ db, clock, jobId: job.id, merged: true });
    const { body } = await get<{ outcome: Outcome }>(`/v2/agent/${projectId}/job/${job.id}`);
    const [seven] = body.outcome.windows;
    expect(seven.total.humanVisitors).toEqual({ before: 80, after: 40, ratio: 0.5 });
    expect(seven.total.changes.traffic).toBe('worse');
    expect(body.outcome.verdict).toBe('regressed');
    await outcomes.sweep();
    expect((await db.problemState.findFirstOrThrow({ where: { projectId, id: 'p-stale' } })).status).toBe('regressed');
    const listed = await get(`/v1/analytics/${projectId}/outcomes?dateFrom=2026-09-01&dateTo=2026-11-01`);
    expect(listed.body.summary).toEqual({ helped: 0, noEffect: 0, regressed: 1 });
  });

  it('answers a list and an outcome again while nothing they read changed, and afresh after a view or a vote in their windows', async () => {
    const hits = syntheticTraffic(13);
    await importHits(hits);
    await app.services.analytics.fold();
    const job = await mergedJob();
    const { analytics } = app.services;
    let reads = 0;
    const counted = createOutcomes({
      db: app.ctx.db,
      clock: app.ctx.clock,
      pages: async () => SITE_FILES,
      pullRequestFiles: async () => prFiles,
      counts: (query) => {
        reads++;
        return analytics.outcomeCounts(query);
      },
      stamps: (id, span) => analytics.outcomeStamps(id, span),
      queries: (query) => analytics.outcomeQueries(query),
      deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
    });
    const project = await getProject(app.ctx.db, projectId);
    const listed = async () => {
      const { outcomes } = await counted.list(project, {
        dateFrom: MERGED_AT - DAY_MS,
        dateTo: MERGED_AT + DAY_MS,
        limit: 5,
      });
      return outcomes[0].outcome.windows[0].total;
    };
    const pages = ['/guides/new', '/guides/renamed', '/guides/setup'];
    const week = (all: Hit[]) => recount(all, pages, LIVE_AT - 7 * DAY_MS, LIVE_AT).human;

    expect((await listed()).humanVisitors.before).toBe(week(hits));
    const first = reads;
    expect(first).toBeGreaterThan(0);
    // the same question, nothing written: answered without reading the counts again, the same
    expect((await listed()).humanVisitors.before).toBe(week(hits));
    const outcome = await counted.ofJob(projectId, job.id);
    expect(await counted.ofJob(projectId, job.id)).toEqual(outcome);
    expect(reads).toBe(first);

    // a new reader two days before the live time: read afresh, one more reader, whether folded yet or not
    const late: Hit = { ip: '10.9.9.9', ua: CHROME, path: '/guides/setup', status: 200, ts: LIVE_AT - 2 * DAY_MS };
    await importHits([late]);
    expect((await listed()).humanVisitors.before).toBe(week([...hits, late]));
    expect(week([...hits, late])).toBe(week(hits) + 1);
    await app.services.analytics.fold();
    expect((await listed()).humanVisitors.before).toBe(week([...hits, late]));
    expect((await counted.ofJob(projectId, job.id))!.windows[0].total.humanVisitors.before).toBe(week([...hits, late]));

    // a thumbs-down after the live time: read afresh
    const beforeVote = reads;
    expect((await listed()).thumbsDown.after).toBe(0);
    expect(reads).toBe(beforeVote);
    const voted = await fetch(`${app.url}/v1/analytics/${projectId}/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        { timestamp: new Date(LIVE_AT + DAY_MS).toISOString(), path: '/guides/setup', helpful: false },
      ]),
    });
    expect(voted.status).toBe(202);
    expect((await listed()).thumbsDown.after).toBe(1);
    expect(reads).toBeGreaterThan(beforeVote);

    // the summary's verdicts of merges off the page are kept too, and judged afresh when a view changes them: an
    // earlier merge of the same pages, then 300 new readers of /guides/setup before the live time (its traffic
    // now worse after the merge, the misses still better: no effect)
    const earlier = await mergedJob({ shift: -60_000 });
    const fresh = createOutcomes({
      db: app.ctx.db,
      clock: app.ctx.clock,
      pages: async () => SITE_FILES,
      pullRequestFiles: async () => prFiles,
      counts: (query) => analytics.outcomeCounts(query),
      deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
    });
    const summary = async () => {
      const query = { dateFrom: MERGED_AT - DAY_MS, dateTo: MERGED_AT + DAY_MS, limit: 1 };
      const { outcomes, summary } = await counted.list(project, query);
      expect(outcomes.map((o) => o.jobId)).toEqual([job.id]);
      return summary;
    };
    const verdicts = async () => [
      (await fresh.ofJob(projectId, job.id))!.verdict,
      (await fresh.ofJob(projectId, earlier.id))!.verdict,
    ];
    expect(await verdicts()).toEqual(['helped', 'helped']);
    expect(await summary()).toEqual({ helped: 2, noEffect: 0, regressed: 0 });
    const kept = reads;
    expect(await summary()).toEqual({ helped: 2, noEffect: 0, regressed: 0 });
    expect(reads).toBe(kept);
    const crowd = Array.from({ length: 300 }, (_, i): Hit => {
      const ip = `10.8.${Math.floor(i / 200)}.${1 + (i % 200)}`;
      return { ip, ua: CHROME, path: '/guides/setup', status: 200, ts: LIVE_AT - 2 * DAY_MS + i * 1000 };
    });
    await importHits(crowd);
    expect(await verdicts()).toEqual(['no effect', 'no effect']);
    expect(await summary()).toEqual({ helped: 0, noEffect: 2, regressed: 0 });
  });

  it("keeps each merge's ended window sides at the sweep: a new process's outcome and summary read no page views for them until a view lands in their days", async () => {
    await importHits(syntheticTraffic(21));
    await app.services.analytics.fold();
    const job = await mergedJob();
    await mergedJob({ shift: -60_000 });
    const { analytics } = app.services;
    // what each read of page views was asked for ('verdict': a summary's verdict), how many ranges' visitors were
    // read from page views, and the merges whose thumbs and misses alone were read
    const asked: (string | undefined)[] = [];
    let rangesRead = 0;
    let signalsAsked = 0;
    const process = () =>
      createOutcomes({
        db: app.ctx.db,
        clock: app.ctx.clock,
        pages: async () => SITE_FILES,
        pullRequestFiles: async () => prFiles,
        counts: (query) => {
          asked.push(query.only);
          rangesRead += query.ranges.filter((_, i) => !query.known?.[i]).length;
          return analytics.outcomeCounts(query);
        },
        signals: (query) => {
          signalsAsked += query.asks.length;
          return analytics.outcomeSignals(query);
        },
        stamps: (id, span) => analytics.outcomeStamps(id, span),
        queries: (query) => analytics.outcomeQueries(query),
        deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
      });
    // a process that keeps nothing (no versions to keep counts under): every count read from the page views
    const truth = () =>
      createOutcomes({
        db: app.ctx.db,
        clock: app.ctx.clock,
        pages: async () => SITE_FILES,
        pullRequestFiles: async () => prFiles,
        counts: (query) => analytics.outcomeCounts(query),
        queries: (query) => analytics.outcomeQueries(query),
        deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
      }).ofJob(projectId, job.id);
    const outcome = async () => {
      rangesRead = 0;
      return process().ofJob(projectId, job.id);
    };
    const project = await getProject(app.ctx.db, projectId);
    // a new process each time (nothing in memory): the page's one merge in full, the other's verdict for the summary
    const summary = async () => {
      asked.length = 0;
      signalsAsked = 0;
      const query = { dateFrom: MERGED_AT - DAY_MS, dateTo: MERGED_AT + DAY_MS, limit: 1 };
      const listed = await process().list(project, query);
      expect(listed.outcomes.map((o) => o.jobId)).toEqual([job.id]);
      return listed.summary;
    };

    expect(await summary()).toEqual({ helped: 2, noEffect: 0, regressed: 0 });
    expect(asked).toContain('verdict');
    expect(await outcome()).toEqual(await truth());
    expect(rangesRead).toBe(6);
    // the sweep counts both merges' ended sides once (and those of earlier tests' projects); again with nothing
    // changed, none
    expect((await process().sweep()).counted).toBeGreaterThanOrEqual(2);
    expect((await process().sweep()).counted).toBe(0);
    expect(await summary()).toEqual({ helped: 2, noEffect: 0, regressed: 0 });
    expect(asked).not.toContain('verdict');
    expect(signalsAsked).toBe(1);
    // every window has ended: the outcome reads its thumbs, misses and searches alone, and is the same
    expect(await outcome()).toEqual(await truth());
    expect(rangesRead).toBe(0);

    // 300 new readers of /guides/setup before the live time, not folded yet: the kept counts no longer match, the
    // verdicts are read from the page views again (traffic now worse after, misses better: no effect)
    const crowd = Array.from({ length: 300 }, (_, i): Hit => {
      const ip = `10.7.${Math.floor(i / 200)}.${1 + (i % 200)}`;
      return { ip, ua: CHROME, path: '/guides/setup', status: 200, ts: LIVE_AT - 2 * DAY_MS + i * 1000 };
    });
    await importHits(crowd);
    expect(await summary()).toEqual({ helped: 0, noEffect: 2, regressed: 0 });
    expect(asked).toContain('verdict');
    expect(signalsAsked).toBe(0);
    // the sides whose days took the crowd are read again (the before sides), the after sides are still kept
    const crowded = await outcome();
    expect(crowded).toEqual(await truth());
    expect(crowded!.windows[0].total.humanVisitors.before).toBeGreaterThanOrEqual(300);
    expect(rangesRead).toBe(3);
    // folded, then swept: counted again, and the summary reads no page views again
    await analytics.fold();
    expect((await process().sweep()).counted).toBe(2);
    expect(await summary()).toEqual({ helped: 0, noEffect: 2, regressed: 0 });
    expect(asked).not.toContain('verdict');
    expect(signalsAsked).toBe(1);
  });

  it('lists merged pull requests newest first with a summary, pages by cursor and refuses bad input', async () => {
    await importHits(syntheticTraffic(9));
    const jobs = [
      await mergedJob({ shift: 0 }),
      await mergedJob({ shift: 60_000 }),
      await mergedJob({ shift: 120_000 }),
    ];
    const first = await get(`/v1/analytics/${projectId}/outcomes?dateFrom=2026-09-01&dateTo=2026-11-01&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.outcomes.map((o: { jobId: string }) => o.jobId)).toEqual([jobs[2].id, jobs[1].id]);
    expect(first.body.summary).toEqual({ helped: 3, noEffect: 0, regressed: 0 });
    expect(first.body.outcomes[0].pages).toEqual([
      { path: '/guides/new', change: 'added' },
      { path: '/guides/renamed', change: 'moved', from: '/guides/old' },
      { path: '/guides/setup', change: 'edited' },
    ]);
    const second = await get(
      `/v1/analytics/${projectId}/outcomes?dateFrom=2026-09-01&dateTo=2026-11-01&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.outcomes.map((o: { jobId: string }) => o.jobId)).toEqual([jobs[0].id]);
    expect(second.body.nextCursor).toBeNull();
    // the default range (the last 30 days) holds none of them
    expect((await get(`/v1/analytics/${projectId}/outcomes`)).body).toEqual({
      outcomes: [],
      summary: { helped: 0, noEffect: 0, regressed: 0 },
      nextCursor: null,
    });

    const bad = await get(`/v1/analytics/${projectId}/outcomes?cursor=nonsense`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeDefined();
    const otherRange = await get(
      `/v1/analytics/${projectId}/outcomes?dateFrom=2026-09-02&cursor=${first.body.nextCursor}`,
    );
    expect(otherRange.status).toBe(400);
    expect((await get(`/v1/analytics/${projectId}/outcomes?limit=0`)).status).toBe(400);
    expect((await get(`/v1/analytics/${projectId}/outcomes?dateFrom=yesterday`)).status).toBe(400);

    expect((await get(`/v2/agent/${projectId}/job/job_unknown`)).status).toBe(404);
    const other = (await app.project()).id;
    const otherKey = await app.key(other, 'read');
    expect((await get(`/v2/agent/${other}/job/${jobs[0].id}`, otherKey)).status).toBe(404);
    const theirs = await get(`/v1/analytics/${other}/outcomes?dateFrom=2026-09-01&dateTo=2026-11-01`, otherKey);
    expect(theirs.body.outcomes).toEqual([]);
    expect((await get(`/v1/analytics/${other}/outcomes`)).status).toBe(403);
  });

  /** `count` merges of one edited page each, a minute apart: jobs `job_<name>_1` … */
  const recordMerges = async (name: string, count: number) => {
    for (let n = 1; n <= count; n++)
      await recordDocsMerge({
        db: app.ctx.db,
        clock: app.ctx.clock,
        merge: {
          jobId: `job_${name}_${n}`,
          projectId,
          repository: 'acme/docs',
          number: 900 + n,
          mergedAt: new Date(MERGED_AT + n * 60_000),
          pages: [{ path: `/guides/${name}-${n}`, change: 'edited' }],
        },
      });
  };

  /** A window's counts with this many human readers in all and nothing else. */
  const humanReaders = (human: number): WindowCounts => ({
    pages: new Map(),
    total: { ...noVisitors(), human, thumbsUp: 0, thumbsDown: 0, comments: 0 },
    misses: new Map(),
    searches: { searches: 0, clicks: 0, byQuery: new Map() },
    together: [],
  });

  /**
   * Outcomes whose counts take a moment each, answering `answer(i)` for a read's i-th range: `seen` holds how many
   * reads were made and the most under way at once.
   */
  const withSlowCounts = (answer: (i: number) => WindowCounts) => {
    const seen = { reads: 0, inFlight: 0, most: 0 };
    const outcomes = createOutcomes({
      db: app.ctx.db,
      clock: app.ctx.clock,
      pages: async () => SITE_FILES,
      pullRequestFiles: async () => prFiles,
      counts: async (query) => {
        seen.reads++;
        seen.most = Math.max(seen.most, ++seen.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.inFlight--;
        return query.ranges.map((_, i) => answer(i));
      },
      deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
    });
    return { outcomes, seen };
  };

  it("reads the merges of a list's page side by side", async () => {
    await recordMerges('side', 3);
    const { outcomes: sideBySide, seen } = withSlowCounts(() => humanReaders(0));
    const project = await getProject(app.ctx.db, projectId);
    const { outcomes } = await sideBySide.list(project, {
      dateFrom: MERGED_AT - DAY_MS,
      dateTo: MERGED_AT + DAY_MS,
      limit: 3,
    });
    expect(outcomes.map((o) => o.jobId)).toEqual(['job_side_3', 'job_side_2', 'job_side_1']);
    expect(seen.most).toBeGreaterThan(1);
  });

  it("reads the summary's verdicts a few merges at a time", async () => {
    await recordMerges('few', 9);
    // every window's after side has twice the readers of its before side: each merge helped
    const { outcomes: fewAtATime, seen } = withSlowCounts((i) => humanReaders(i % 2 ? 200 : 100));
    const project = await getProject(app.ctx.db, projectId);
    const page = { dateFrom: MERGED_AT - DAY_MS, dateTo: MERGED_AT + DAY_MS, limit: 1 };
    const { outcomes, summary } = await fewAtATime.list(project, page);
    expect(outcomes.map((o) => o.jobId)).toEqual(['job_few_9']);
    expect(summary).toEqual({ helped: 9, noEffect: 0, regressed: 0 });
    // the page's one merge (one read at a time) beside the eight others' verdicts, a few at a time
    expect(seen.reads).toBeGreaterThanOrEqual(1 + 8);
    expect(seen.most).toBeGreaterThan(1);
    expect(seen.most).toBeLessThanOrEqual(1 + SUMMARY_READS);
  });
});
