import fs from 'node:fs';
import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import type { Problems } from '../../../src/problems/problems.js';
import type { SitePage } from '../../../src/problems/redirect-candidates.js';
import { startTestApp, jobRoutes, type TestApp } from '../../support/test-app.js';
import { PROVIDERS } from '../../support/databases.js';
import { GPTBOT_RANGE, writeRangesFile } from '../../support/ai-traffic.js';
import { problemRoutesFor } from '../../support/problem-routes.js';
import { analyticsMissBeaconRoutes } from '../../../src/http/routes/analytics-miss-beacon.js';
import { recordSourceMerge } from '../../../src/reviews/source-merges.js';
import { appendEvent, createJob } from '../../../src/jobs/job-store.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const VERIFIED_IP = GPTBOT_RANGE.replace('0/24', '9');

const SITE: SitePage[] = [
  { path: '/guides/getting-started', file: 'docs/guides/getting-started.mdx', title: 'Getting started' },
  { path: '/reference/api', file: 'docs/reference/api.mdx', title: 'API reference' },
  { path: '/guides/billing', file: 'docs/guides/billing.mdx', title: 'Billing' },
];

/** One combined-log line on 2026-11-`day` at `second`. */
const line = (p: { ip: string; path: string; status: number; ua: string; day?: number; second?: number }) =>
  `${p.ip} - - [${p.day ?? 20}/Nov/2026:10:00:${String(p.second ?? 0).padStart(2, '0')} +0000] "GET ${p.path} HTTP/1.1" ${p.status} 512 "-" "${p.ua}"`;

interface Problem {
  id: string;
  kind: string;
  status: string;
  title: string;
  paths: string[];
  readers: number;
  trend: { previousReaders: number; change: number | null };
  firstSeen: string;
  lastSeen: string;
  evidence: any;
  jobId: string | null;
  prLink: string | null;
  dismissal: { reason: string; at: string } | null;
}

describe.each(PROVIDERS)('the problems queue on %s', (provider) => {
  let app: TestApp;
  let ranges: ReturnType<typeof writeRangesFile>;
  let now = new Date('2026-11-21T00:00:00Z');
  let problems: Problems;
  let projectId: string;
  let read: string;
  let write: string;

  beforeAll(async () => {
    ranges = writeRangesFile();
    app = await startTestApp({
      provider,
      env: { SCRIBE_AI_RANGES_FILE: ranges.file, SCRIBE_AI_REVERSE_DNS: 'off' },
      clock: () => now,
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        jobRoutes(),
        problemRoutesFor({ analytics, pages: SITE, onProblems: (p) => (problems = p) }),
        analyticsMissBeaconRoutes({ analytics }),
      ],
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    now = new Date('2026-11-21T00:00:00Z');
    projectId = (await app.project()).id;
    read = await app.key(projectId, 'read');
    write = await app.key(projectId, 'write');
  });

  const call = async <T = any>(method: string, path: string, body?: unknown, key = method === 'GET' ? read : write) => {
    const res = await fetch(`${app.url}${path.startsWith('/v') ? '' : `/v1/analytics/${projectId}`}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  const list = async (query = '') =>
    call<{ problems: Problem[]; nextCursor: string | null }>(
      'GET',
      `/problems?dateFrom=2026-11-14&dateTo=2026-11-21${query}`,
    );
  const importLog = async (lines: string[]) => {
    const sent = await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'text/plain' },
      body: `${lines.join('\n')}\n`,
    });
    expect(sent.status).toBe(202);
  };
  const signals = () => app.services.analytics.readerSignals();

  /** AI agents and humans missing /guides/getting-started-old this week, and one human last week. */
  const missingTraffic = () =>
    importLog([
      line({ ip: VERIFIED_IP, path: '/guides/getting-started-old?ref=x', status: 404, ua: GPTBOT, second: 1 }),
      line({ ip: VERIFIED_IP, path: '/guides/getting-started-old', status: 404, ua: GPTBOT, second: 2 }),
      line({ ip: '198.51.100.7', path: '/guides/getting-started-old', status: 404, ua: CLAUDE, second: 3 }),
      line({ ip: '198.51.100.8', path: '/guides/getting-started-old', status: 410, ua: CHROME, second: 4 }),
      line({ ip: '198.51.100.8', path: '/guides/getting-started-old', status: 404, ua: FIREFOX, second: 5 }),
      line({ ip: '198.51.100.9', path: '/guides/getting-started-old', status: 404, ua: CHROME, day: 10 }),
      line({ ip: '198.51.100.9', path: '/broken', status: 503, ua: CHROME, second: 6 }), // the server's failure
      line({ ip: '198.51.100.9', path: '/logo.png', status: 404, ua: CHROME, second: 7 }), // an asset
    ]);

  it('lists a URL humans and AI agents get 404/410 for, with exact readers, who asked, trend and redirect candidates', async () => {
    await missingTraffic();
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.nextCursor).toBeNull();
    expect(body.problems).toHaveLength(1);
    const [p] = body.problems;
    expect(p).toMatchObject({
      kind: 'missing-page',
      status: 'open',
      paths: ['/guides/getting-started-old'],
      // GPTBot at one address (twice), ClaudeBot, and two browsers at one address: four visitors
      readers: 4,
      trend: { previousReaders: 1, change: 3 },
      firstSeen: '2026-11-20T10:00:01.000Z',
      lastSeen: '2026-11-20T10:00:05.000Z',
      jobId: null,
      prLink: null,
      dismissal: null,
    });
    expect(p.id).toMatch(/^pb_[0-9a-f]{24}$/);
    expect(p.evidence).toMatchObject({
      url: '/guides/getting-started-old',
      requests: 5,
      humanReaders: 2,
      aiReaders: 2,
      statuses: [
        { status: 404, requests: 4 },
        { status: 410, requests: 1 },
      ],
      agents: [
        { agent: 'GPTBot', requests: 2, verified: 2 },
        { agent: 'human', requests: 2, verified: 0 },
        { agent: 'ClaudeBot', requests: 1, verified: 0 },
      ],
      verifiedShare: 0.667,
    });
    expect(p.evidence.candidates[0]).toMatchObject({
      path: '/guides/getting-started',
      file: 'docs/guides/getting-started.mdx',
    });
    expect(p.evidence.candidates.length).toBeLessThanOrEqual(3);
    // the id survives a recomputation, over another range too
    expect((await list('&limit=5')).body.problems[0].id).toBe(p.id);
    const wider = await call<{ problems: Problem[] }>('GET', '/problems?dateFrom=2026-11-01&dateTo=2026-11-21');
    expect(wider.body.problems[0]).toMatchObject({ id: p.id, readers: 5 });
  });

  it('answers the same question again with every signal stored or changed since, on the queue and the page', async () => {
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).getTime();
    const summary = async () =>
      (await list()).body.problems.map((p) => `${p.kind} ${p.paths.join(',') || p.evidence.query} ${p.readers}`).sort();
    const story = async () =>
      (await call('GET', '/page?path=/guides/getting-started&dateFrom=2026-11-14&dateTo=2026-11-21')).body;
    expect(await summary()).toEqual([]);
    expect((await story()).misses).toEqual([]);
    await missingTraffic();
    expect(await summary()).toEqual(['missing-page /guides/getting-started-old 4']);
    expect((await story()).misses).toMatchObject([{ url: '/guides/getting-started-old', readers: 4 }]);
    // one more reader of the missing URL (a log line), asked exactly as before
    await importLog([line({ ip: '198.51.100.30', path: '/guides/getting-started-old', status: 404, ua: CHROME })]);
    expect(await summary()).toEqual(['missing-page /guides/getting-started-old 5']);
    expect((await story()).misses).toMatchObject([{ url: '/guides/getting-started-old', readers: 5 }]);
    // a thumbs-down, then its entry resolved
    await signals().submitFeedback(projectId, [
      { path: '/guides/getting-started', helpful: false, comment: 'Step 3 fails', visitorId: 'a', timestamp: at(19) },
    ]);
    expect(await summary()).toContain('negative-feedback /guides/getting-started 1');
    expect((await story()).feedback).toMatchObject({ thumbsDown: 1, comments: [{ status: 'pending' }] });
    const entries = await signals().feedback(projectId, { limit: 50, dateFrom: at(1), dateTo: at(21) });
    for (const e of entries.rows) await signals().setFeedbackStatus(projectId, String(e.id), 'resolved');
    expect(await summary()).toEqual(['missing-page /guides/getting-started-old 5']);
    expect((await story()).feedback).toMatchObject({ thumbsDown: 1, comments: [{ status: 'resolved' }] });
    // a query searched twice with no click is a gap until someone clicks one of its results
    await signals().submitSearches(projectId, [
      { query: 'sandbox', visitorId: 'a', timestamp: at(18) },
      { query: 'sandbox', visitorId: 'b', timestamp: at(19) },
    ]);
    expect(await summary()).toContain('search-gap sandbox 2');
    await signals().submitSearches(projectId, [
      { query: 'sandbox', clickedPath: '/guides/getting-started', visitorId: 'b', timestamp: at(19) },
    ]);
    expect(await summary()).toEqual(['missing-page /guides/getting-started-old 5']);
    expect((await story()).searches).toEqual([{ query: 'sandbox', clicks: 1 }]);
  });

  it("counts the tracker's 404 beacons of people on the project's site, once per reader, page and minute", async () => {
    const beacon = (url: string, ua = CHROME, project = projectId) =>
      fetch(`${app.url}/api/miss`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': ua },
        body: JSON.stringify({ projectId: project, url }),
      });
    for (const sent of [
      beacon('https://docs.example.com/guides/getting-started-old?from=nav'),
      beacon('https://docs.example.com/guides/getting-started-old'), // a reload
      beacon('https://docs.example.com/guides/getting-started-old', FIREFOX), // another reader at the address
      beacon('https://docs.example.com/guides/getting-started-old', GPTBOT), // not a person: dropped
      beacon('https://elsewhere.example.com/guides/getting-started-old'), // not the project's site: dropped
      beacon('https://docs.example.com/x', CHROME, 'prj_unknown'), // no such project: dropped
    ])
      expect((await sent).status).toBe(202);
    expect((await fetch(`${app.url}/api/miss`, { method: 'POST', body: '{"url": 5}' })).status).toBe(400);
    const { body } = await call<{ problems: Problem[] }>('GET', '/problems?dateFrom=2026-11-20&dateTo=2026-11-22');
    expect(body.problems).toHaveLength(1);
    expect(body.problems[0]).toMatchObject({
      paths: ['/guides/getting-started-old'],
      readers: 2,
      evidence: { requests: 2, humanReaders: 2, aiReaders: 0, agents: [{ agent: 'human', requests: 2, verified: 0 }] },
    });
  });

  it('lists pending negative feedback with its comments, and searches nobody clicks a result of', async () => {
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).getTime();
    await signals().submitFeedback(projectId, [
      {
        path: '/guides/billing',
        helpful: false,
        comment: 'The invoice example is wrong',
        visitorId: 'a',
        timestamp: at(18),
      },
      { path: '/guides/billing', helpful: false, visitorId: 'b', timestamp: at(19) },
      { path: '/guides/billing', helpful: true, visitorId: 'c', timestamp: at(19) },
      { path: '/reference/api', helpful: true, comment: 'Great page', visitorId: 'a', timestamp: at(19) },
    ]);
    await signals().submitSearches(projectId, [
      { query: 'webhooks retry', visitorId: 'a', timestamp: at(18) },
      { query: 'Webhooks  retry', visitorId: 'b', timestamp: at(19) },
      { query: 'billing', visitorId: 'a', timestamp: at(19) },
      { query: 'billing', visitorId: 'b', timestamp: at(19) },
      { query: 'billing', clickedPath: '/guides/billing', visitorId: 'b', timestamp: at(19) },
      { query: 'once', visitorId: 'c', timestamp: at(19) },
    ]);
    const { body } = await list();
    expect(body.problems.map((p) => `${p.kind} ${p.readers}`).sort()).toEqual(['negative-feedback 2', 'search-gap 2']);
    const feedback = body.problems.find((p) => p.kind === 'negative-feedback')!;
    expect(feedback).toMatchObject({ paths: ['/guides/billing'], trend: { previousReaders: 0, change: null } });
    expect(feedback.evidence).toMatchObject({
      thumbsDown: 2,
      thumbsUp: 1,
      comments: [{ comment: 'The invoice example is wrong', helpful: false, createdAt: '2026-11-18T12:00:00.000Z' }],
    });
    const gap = body.problems.find((p) => p.kind === 'search-gap')!;
    expect(gap).toMatchObject({ paths: [], evidence: { query: 'webhooks retry', searches: 2, clicks: 0 } });
    // the entries resolved: no problem left
    const entries = await signals().feedback(projectId, { limit: 50, dateFrom: at(1), dateTo: at(21) });
    for (const e of entries.rows) await signals().setFeedbackStatus(projectId, String(e.id), 'resolved');
    expect((await list('&kind=negative-feedback')).body.problems).toEqual([]);
  });

  it("keeps a page's newest 20 pending comments as the evidence, counting every reader behind them", async () => {
    const at = (minute: number) => Date.UTC(2026, 10, 19, 12, minute);
    await signals().submitFeedback(
      projectId,
      Array.from({ length: 25 }, (_, i) => ({
        path: '/guides/billing',
        helpful: false,
        comment: `comment ${i}`,
        visitorId: `reader-${i}`,
        timestamp: at(i),
      })),
    );
    const [problem] = (await list('&kind=negative-feedback')).body.problems;
    expect(problem).toMatchObject({ kind: 'negative-feedback', readers: 25, evidence: { thumbsDown: 25 } });
    expect(problem.evidence.comments.map((c: { comment: string }) => c.comment)).toEqual(
      Array.from({ length: 20 }, (_, i) => `comment ${24 - i}`),
    );
  });

  it('pages by cursor, most readers first, and filters by kind and status', async () => {
    const at = Date.UTC(2026, 10, 19);
    // queries searched by 1, 2 and 3 visitors (each at least twice)
    const searches = [1, 2, 3].flatMap((n) =>
      Array.from({ length: Math.max(2, n) }, (_, i) => ({ query: `q${n}`, visitorId: `v${i % n}`, timestamp: at })),
    );
    await signals().submitSearches(projectId, searches);
    await missingTraffic();
    const walked: Problem[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { problems: Problem[]; nextCursor: string | null } } = await list(
        `&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      walked.push(...page.body.problems);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked.map((p) => [p.kind, p.readers])).toEqual([
      ['missing-page', 4],
      ['search-gap', 3],
      ['search-gap', 2],
      ['search-gap', 1],
    ]);
    expect((await list('&kind=search-gap,missing-page&limit=2')).body.problems).toHaveLength(2);
    expect((await list('&kind=missing-page')).body.problems).toHaveLength(1);
    expect((await list('&status=dismissed')).body.problems).toEqual([]);
    const first = await list('&limit=1');
    const other = await list(`&limit=1&kind=search-gap&cursor=${first.body.nextCursor}`);
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toMatch(/another range or other filters/);
    expect((await list(`&cursor=${first.body.nextCursor}x`)).status).toBe(400);
    for (const bad of ['&kind=typo', '&status=closed', '&limit=0', '&limit=101', '&dateFrom=2026-11-22'])
      expect((await list(bad)).status).toBe(400);
  });

  it('dismisses a problem until its signal comes back, and opens it again', async () => {
    await missingTraffic();
    const [p] = (await list()).body.problems;
    now = new Date('2026-11-21T01:00:00Z');
    const dismissed = await call<Problem>('PATCH', `/problems/${p.id}`, { status: 'dismissed', reason: 'an old link' });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      status: 'dismissed',
      dismissal: { reason: 'an old link', at: '2026-11-21T01:00:00.000Z' },
    });
    expect((await list('&status=dismissed')).body.problems.map((x) => x.id)).toEqual([p.id]);
    expect((await list('&status=open')).body.problems).toEqual([]);
    // the URL is asked for again after the dismissal
    now = new Date('2026-11-22T00:00:00Z');
    await importLog([
      line({ ip: '203.0.113.5', path: '/guides/getting-started-old', status: 404, ua: CHROME, day: 21, second: 30 }),
    ]);
    const back = await call<{ problems: Problem[] }>('GET', '/problems?dateFrom=2026-11-14&dateTo=2026-11-22');
    expect(back.body.problems[0]).toMatchObject({ id: p.id, status: 'open', dismissal: null });
    // dismissed again, then opened by hand
    await call('PATCH', `/problems/${p.id}`, { status: 'dismissed', reason: 'still old' });
    const opened = await call<Problem>('PATCH', `/problems/${p.id}`, { status: 'open' });
    expect(opened.body).toMatchObject({ status: 'open', dismissal: null });
    for (const bad of [{ status: 'dismissed' }, { status: 'fixed' }, { status: 'open', reason: 'x' }, {}])
      expect((await call('PATCH', `/problems/${p.id}`, bad)).status).toBe(400);
    expect((await call('PATCH', '/problems/pb_000000000000000000000000', { status: 'open' })).status).toBe(404);
    expect((await call('PATCH', `/problems/${p.id}`, { status: 'open' }, read)).status).toBe(403);
  });

  it('starts one job for the problems it is given, which records them as its cause, and settles them with its pull request', async () => {
    await missingTraffic();
    await signals().submitSearches(projectId, [
      { query: 'sso setup', visitorId: 'a', timestamp: Date.UTC(2026, 10, 19) },
      { query: 'sso setup', visitorId: 'b', timestamp: Date.UTC(2026, 10, 19) },
    ]);
    const ids = (await list()).body.problems.map((p) => p.id);
    const fixed = await call('POST', '/problems/fix', { ids, instructions: 'Keep the tone short.' });
    expect(fixed.status).toBe(202);
    expect(fixed.body).toMatchObject({ status: 'active', prLink: null });
    expect(fixed.body.cause.problems.map((p: { id: string }) => p.id)).toEqual(ids);
    // the search gap's query is kept with it: the job's outcome measures that query's click-through
    expect(fixed.body.cause.problems.filter((p: { kind: string }) => p.kind === 'search-gap')).toEqual([
      expect.objectContaining({ query: 'sso setup' }),
    ]);
    expect(fixed.body.prompt).toContain('/guides/getting-started-old');
    expect(fixed.body.prompt).toContain('/guides/getting-started (docs/guides/getting-started.mdx');
    expect(fixed.body.prompt).toContain('"sso setup" 2 times');
    expect(fixed.body.prompt).toContain('docs.json');
    expect(fixed.body.prompt).toContain('Keep the tone short.');
    const job = await call('GET', `/v2/agent/${projectId}/job/${fixed.body.id}`);
    expect(job.body.cause).toEqual(fixed.body.cause);
    const listed = (await list()).body.problems;
    expect(listed.every((p) => p.status === 'in_progress' && p.jobId === fixed.body.id)).toBe(true);
    // asked again: the same job, no second one
    const again = await call('POST', '/problems/fix', { ids: [ids[1], ids[0]] });
    expect(again).toMatchObject({ status: 202, body: { id: fixed.body.id } });
    // a dismissal while the fix runs is refused
    expect((await call('PATCH', `/problems/${ids[0]}`, { status: 'dismissed', reason: 'x' })).status).toBe(409);

    await problems.onJobPullRequestClosed({ jobId: fixed.body.id, merged: false });
    expect((await list()).body.problems.map((p) => [p.status, p.jobId])).toEqual([
      ['open', null],
      ['open', null],
    ]);
    const second = await call('POST', '/problems/fix', { ids: [ids[0]] });
    expect(second.body.id).not.toBe(fixed.body.id);
    await problems.onJobPullRequestClosed({ jobId: second.body.id, merged: true });
    expect((await list()).body.problems.find((p) => p.id === ids[0])).toMatchObject({
      status: 'fixed',
      jobId: second.body.id,
    });
    const refused = await call('POST', '/problems/fix', { ids: [ids[0]] });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual([{ message: `${ids[0]} is fixed` }]);
  });

  it('two fixes of the same problem at once start one job', async () => {
    await missingTraffic();
    const [p] = (await list()).body.problems;
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/problems/fix', { ids: [p.id] })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const jobs = await call('GET', `/v2/agent/${projectId}/jobs`);
    expect(jobs.body.jobs).toHaveLength(1);
  });

  it('refuses fixes a hostile client would try, saying which problem and why', async () => {
    await missingTraffic();
    const [p] = (await list()).body.problems;
    const other = (await app.project()).id;
    const otherKey = await app.key(other, 'write');
    const foreign = await call('POST', `/v1/analytics/${other}/problems/fix`, { ids: [p.id] }, otherKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.details).toEqual([
      { message: `${p.id}: no such problem in this project (over the last 30 days)` },
    ]);
    const unknown = await call('POST', '/problems/fix', { ids: [p.id, 'pb_nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.details).toEqual([
      { message: 'pb_nope: no such problem in this project (over the last 30 days)' },
    ]);
    const tooMany = await call('POST', '/problems/fix', { ids: Array.from({ length: 51 }, (_, i) => `pb_${i}`) });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('at most 50');
    for (const bad of [{}, { ids: [] }, { ids: 'x' }, { ids: [p.id], extra: 1 }, { ids: [p.id], instructions: 5 }])
      expect((await call('POST', '/problems/fix', bad)).status).toBe(400);
    expect((await call('POST', '/problems/fix', { ids: [p.id] }, read)).status).toBe(403);
    await call('PATCH', `/problems/${p.id}`, { status: 'dismissed', reason: 'old' });
    const dismissed = await call('POST', '/problems/fix', { ids: [p.id] });
    expect(dismissed.status).toBe(409);
    expect(dismissed.body.details).toEqual([{ message: `${p.id} is dismissed` }]);
    // nothing was started by any of these
    expect((await call('GET', `/v2/agent/${projectId}/jobs`)).body.jobs).toEqual([]);
  });

  it("lists pages a merged source pull request's review named, until a Scribe docs pull request changes them", async () => {
    const { db, clock } = app.ctx;
    const reviewedAt = new Date('2026-11-15T00:00:00Z');
    const finding = {
      page: 'docs/guides/billing.mdx',
      line: 3,
      lineText: 'Pass `--verbose`.',
      identifier: '--verbose',
      change: 'renamed',
      renamedTo: '--debug',
      kind: 'flag',
      codeFile: 'src/cli.ts',
      codeLine: 1,
      reason: 'the flag was renamed',
    };
    await db.docsReviewCheck.create({
      data: {
        id: `rev_${projectId}`,
        projectId,
        automationId: 'review-api',
        repository: 'acme/api',
        number: 7,
        headSha: 'a'.repeat(40),
        status: 'completed',
        conclusion: 'neutral',
        pageCount: 1,
        findings: JSON.stringify({ findings: [finding], rejected: [] }),
        createdAt: reviewedAt,
        updatedAt: reviewedAt,
      },
    });
    expect((await list('&kind=stale-page')).body.problems).toEqual([]); // not merged yet
    const mergedAt = new Date('2026-11-16T09:00:00Z');
    expect(await recordSourceMerge(db, { repository: 'Acme/API', number: 7, mergedAt })).toBe(true);
    expect(await recordSourceMerge(db, { repository: 'acme/api', number: 8, mergedAt })).toBe(false); // never reviewed
    const [stale] = (await list('&kind=stale-page')).body.problems;
    expect(stale).toMatchObject({
      kind: 'stale-page',
      status: 'open',
      paths: ['/guides/billing'],
      firstSeen: mergedAt.toISOString(),
      evidence: {
        repository: 'acme/api',
        number: 7,
        mergedAt: mergedAt.toISOString(),
        findings: [{ line: 3, identifier: '--verbose', change: 'renamed to --debug', reason: 'the flag was renamed' }],
      },
    });
    const fix = await call('POST', '/problems/fix', { ids: [stale.id] });
    expect(fix.body.prompt).toContain('acme/api#7 merged');
    expect(fix.body.prompt).toContain('`--verbose` renamed to --debug — the flag was renamed');
    await problems.onJobPullRequestClosed({ jobId: fix.body.id, merged: false });

    // a Scribe job whose agent edited the page since the review: no longer stale, and part of the page's story
    const job = await createJob({
      db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'claude',
      draft: false,
      prompt: 'Rename the flag',
    });
    await db.agentJob.update({
      where: { id: job.id },
      data: { prNumber: 3, prLink: 'https://github.test/acme/docs/pull/3' },
    });
    const call_ = { tool: 'str_replace_based_edit_tool', command: 'str_replace', path: finding.page, ok: true };
    await appendEvent({ db, clock, jobId: job.id, type: 'tool_call', data: call_ });
    expect((await list('&kind=stale-page')).body.problems).toEqual([]);
    const story = await call('GET', '/page?path=/guides/billing&dateFrom=2026-11-14&dateTo=2026-11-21');
    expect(story.body.reviews).toEqual([
      expect.objectContaining({ repository: 'acme/api', number: 7, conclusion: 'neutral', findings: 1 }),
    ]);
    expect(story.body.pullRequests).toEqual([
      expect.objectContaining({
        jobId: job.id,
        prLink: 'https://github.test/acme/docs/pull/3',
        state: 'open',
        merged: false,
      }),
    ]);
  });

  it("tells a page's story: visitors beside the previous range, agents, misses pointing at it, feedback and searches", async () => {
    const views = [
      { timestamp: '2026-11-19T08:00:00Z', path: '/guides/getting-started', userAgent: CHROME, ip: '198.51.100.20' },
      { timestamp: '2026-11-19T09:00:00Z', path: '/guides/getting-started', userAgent: CHROME, ip: '198.51.100.20' },
      { timestamp: '2026-11-20T09:00:00Z', path: '/guides/getting-started', userAgent: GPTBOT, ip: VERIFIED_IP },
      {
        timestamp: '2026-11-20T10:00:00Z',
        path: '/guides/getting-started',
        userAgent: FIREFOX,
        ip: '198.51.100.21',
        referrer: 'https://chatgpt.com/c/1',
      },
      { timestamp: '2026-11-12T09:00:00Z', path: '/guides/getting-started', userAgent: CHROME, ip: '198.51.100.22' },
      { timestamp: '2026-11-19T09:00:00Z', path: '/reference/api', userAgent: CHROME, ip: '198.51.100.23' },
    ];
    expect((await call('POST', '/events', views)).status).toBe(202);
    await missingTraffic();
    await signals().submitFeedback(projectId, [
      {
        path: '/guides/getting-started',
        helpful: false,
        comment: 'Step 3 fails',
        visitorId: 'a',
        timestamp: Date.UTC(2026, 10, 19),
      },
    ]);
    await signals().submitSearches(projectId, [
      { query: 'install', clickedPath: '/guides/getting-started', visitorId: 'a', timestamp: Date.UTC(2026, 10, 19) },
    ]);
    const { status, body } = await call(
      'GET',
      '/page?path=/guides/getting-started&dateFrom=2026-11-14&dateTo=2026-11-21',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      path: '/guides/getting-started',
      range: { from: '2026-11-14T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' },
      previousRange: { from: '2026-11-07T00:00:00.000Z', to: '2026-11-14T00:00:00.000Z' },
      totals: { human: 2, ai: 1, previous: { human: 1, ai: 0 } },
      agents: [{ agent: 'GPTBot', views: 1, visitors: 1 }],
      referrals: [{ assistant: 'ChatGPT', views: 1, visitors: 1 }],
      misses: [{ url: '/guides/getting-started-old', requests: 5, readers: 4 }],
      feedback: { thumbsUp: 0, thumbsDown: 1, comments: [{ comment: 'Step 3 fails', status: 'pending' }] },
      searches: [{ query: 'install', clicks: 1 }],
      reviews: [],
      pullRequests: [],
    });
    expect(body.days).toHaveLength(7);
    expect(body.days.find((d: { date: string }) => d.date === '2026-11-19')).toEqual({
      date: '2026-11-19',
      human: 1,
      ai: 0,
      previous: { human: 1, ai: 0 },
    });
    expect((await call('GET', '/page')).status).toBe(400);
    // a row per day, as visitors/daily: at most 400 days
    const long = await call('GET', '/page?path=/x&dateFrom=2024-01-01&dateTo=2026-01-01');
    expect(long).toEqual({
      status: 400,
      body: expect.objectContaining({ details: [{ message: 'the range may span at most 400 days' }] }),
    });
    expect((await call('GET', '/page?path=/x&dateFrom=2025-01-01&dateTo=2026-01-01')).status).toBe(200);
    expect((await call('GET', '/page?path=/x', undefined, 'scribe_sk_nope')).status).toBe(401);
  });
});
