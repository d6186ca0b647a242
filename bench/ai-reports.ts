/**
 * The AI-traffic and reader-signal reports' part of bench/analytics.ts: what those reports read besides page views
 * (AI agents' failed requests from a server log, feedback, searches), and p50/p95 of each report over 1/7/30 days.
 * The AI-traffic reports and `agents` read the agent rollup beside the day sets; misses, feedback and searches scan
 * the range's stored rows, so their cost grows with the range.
 */
const DAY = 86_400_000;
const DAYS = 30;
const ITEMS_PER_POST = 1000;
const LOG_LINES_PER_POST = 20_000;
const IN_FLIGHT = 4;

/** Every report timed, as a path under /v1/analytics/{projectId}/ plus its own query. */
export const REPORTS = [
  { name: 'ai/purposes', path: 'ai/purposes', query: '' },
  { name: 'ai/purposes (CSV)', path: 'ai/purposes', query: '&format=csv' },
  { name: 'ai/agent-pages', path: 'ai/agent-pages', query: '' },
  { name: 'ai/referrals', path: 'ai/referrals', query: '' },
  { name: 'agents', path: 'agents', query: '' },
  { name: 'ai/misses', path: 'ai/misses', query: '' },
  { name: 'feedback', path: 'feedback', query: '' },
  { name: 'feedback/by-page', path: 'feedback/by-page', query: '' },
  { name: 'searches', path: 'searches', query: '' },
] as const;

const MISS_AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'claude-code/1.0.72 (external, cli)',
];
const MISS_STATUSES = [404, 404, 404, 404, 404, 404, 410, 500, 502, 503];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const COMMENTS = [
  'Step 3 is missing',
  'The example does not compile',
  'Thanks, this helped',
  'Which version is this for?',
  'Link to the API reference is broken',
];

export interface Site {
  /** page path of a random Zipf-popular page */
  page(u: number): string;
  random: () => number;
  endDay: number;
}

function combinedTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

const spread = (site: Site, i: number, n: number) => (site.endDay - DAYS) * DAY + Math.floor((i * DAYS * DAY) / n);

/** AI agents' requests the site answered 404/410/5xx, as nginx combined lines: half for pages that moved, half for pages that never existed. */
function* missLogs(site: Site, count: number): Generator<string> {
  let lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = site.random();
    const path = r < 0.5 ? `${site.page(site.random())}-old` : `/docs/missing-${Math.floor(site.random() * 500)}.md`;
    const a = Math.floor(site.random() * MISS_AGENTS.length);
    const status = MISS_STATUSES[Math.floor(site.random() * MISS_STATUSES.length)];
    lines.push(
      `203.0.113.${a + 1} - - [${combinedTime(spread(site, i, count))}] "GET ${path} HTTP/1.1" ${status} 153 "-" "${MISS_AGENTS[a]}"`,
    );
    if (lines.length === LOG_LINES_PER_POST) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
  }
  if (lines.length) yield `${lines.join('\n')}\n`;
}

/** Server-side feedback items: thumbs, a comment on a third, a code snippet report on one in twenty. */
function* feedbackBatches(site: Site, count: number): Generator<string> {
  let batch: object[] = [];
  for (let i = 0; i < count; i++) {
    const timestamp = new Date(spread(site, i, count)).toISOString();
    const path = site.page(site.random());
    const r = site.random();
    if (r < 0.05)
      batch.push({
        path,
        source: 'code_snippet',
        code: 'npm install scribe',
        lang: 'bash',
        comment: 'fails on Node 18',
        timestamp,
        id: `f${i}`,
      });
    else if (r < 0.35)
      batch.push({ path, helpful: r < 0.15, comment: COMMENTS[i % COMMENTS.length], timestamp, id: `f${i}` });
    else batch.push({ path, helpful: r < 0.8, timestamp, id: `f${i}` });
    if (batch.length === ITEMS_PER_POST) {
      yield JSON.stringify(batch);
      batch = [];
    }
  }
  if (batch.length) yield JSON.stringify(batch);
}

/** Server-side searches over 2,000 terms (popular ones far more often), a third followed by a click on a result. */
function* searchBatches(site: Site, count: number): Generator<string> {
  let batch: object[] = [];
  for (let i = 0; i < count; i++) {
    const timestamp = new Date(spread(site, i, count)).toISOString();
    const query = `topic ${Math.floor(2000 * site.random() ** 3)}`;
    batch.push(
      site.random() < 0.33
        ? { query, clickedPath: site.page(site.random()), timestamp, id: `s${i}` }
        : { query, timestamp, id: `s${i}` },
    );
    if (batch.length === ITEMS_PER_POST) {
      yield JSON.stringify(batch);
      batch = [];
    }
  }
  if (batch.length) yield JSON.stringify(batch);
}

async function post(params: {
  url: string;
  headers: Record<string, string>;
  bodies: Iterable<string>;
  check: (status: number, out: Record<string, unknown>) => number;
}): Promise<number> {
  let stored = 0;
  const pending = new Set<Promise<void>>();
  for (const body of params.bodies) {
    const p: Promise<void> = fetch(params.url, { method: 'POST', headers: params.headers, body })
      .then(async (res) => {
        stored += params.check(res.status, (await res.json()) as Record<string, unknown>);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  }
  await Promise.all(pending);
  return stored;
}

/**
 * Stores what the reader-signal and miss reports read, scaled to the page views: AI misses 1% of views, feedback
 * 0.2%, searches 5%. Returns how many of each were stored, and the seconds each took.
 */
export async function ingestReportInputs(params: {
  base: string;
  key: string;
  site: Site;
  size: number;
  /** how many feedback entries and searches (default: one per 500 and one per 20 page views) */
  counts?: { feedback?: number; searches?: number };
}): Promise<{ misses: number; feedback: number; searches: number; seconds: Record<string, number> }> {
  const { base, key, site, size } = params;
  const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const accepted = (status: number, out: Record<string, unknown>) => {
    if (status !== 202 || (out.rejected as unknown[]).length)
      throw new Error(`ingest failed: ${status} ${JSON.stringify(out).slice(0, 300)}`);
    return out.accepted as number;
  };
  const missCount = Math.round(size / 100);
  const seconds: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    seconds[name] = Math.round((performance.now() - t) / 100) / 10;
    t = performance.now();
  };
  await post({
    url: `${base}/logs?format=combined`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
    bodies: missLogs(site, missCount),
    check: (status, out) => {
      if (status !== 200 && status !== 202)
        throw new Error(`log import failed: ${status} ${JSON.stringify(out).slice(0, 300)}`);
      return 0;
    },
  });
  lap('misses');
  const feedback = await post({
    url: `${base}/feedback`,
    headers: json,
    bodies: feedbackBatches(site, params.counts?.feedback ?? Math.round(size / 500)),
    check: accepted,
  });
  lap('feedback');
  const searches = await post({
    url: `${base}/searches`,
    headers: json,
    bodies: searchBatches(site, params.counts?.searches ?? Math.round(size / 20)),
    check: accepted,
  });
  lap('searches');
  return { misses: missCount, feedback, searches, seconds };
}

export interface ReportTiming {
  report: string;
  days: number;
  p50: number;
  p95: number;
  /** rows in the answer's main list (CSV: data lines), to show the report had data to read */
  rows: number;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];

function rowsOf(body: string, csv: boolean): number {
  if (csv) return body.split('\r\n').length - 2;
  const out = JSON.parse(body) as Record<string, unknown>;
  const list = out.pages ?? out.rows ?? out.feedback ?? out.searches ?? out.agents;
  return Array.isArray(list) ? list.length : -1;
}

/** p50/p95 over `reps` requests of each report for each range, after one untimed request that warms the connection and the database's cache. */
export async function timeReports(params: {
  base: string;
  key: string;
  endDay: number;
  reps: number;
  log: (msg: string) => void;
}): Promise<ReportTiming[]> {
  const { base, key, endDay, reps, log } = params;
  const headers = { authorization: `Bearer ${key}` };
  const to = new Date(endDay * DAY).toISOString().slice(0, 10);
  const timings: ReportTiming[] = [];
  for (const report of REPORTS) {
    for (const days of [1, 7, 30]) {
      const from = new Date((endDay - days) * DAY).toISOString().slice(0, 10);
      const u = `${base}/${report.path}?dateFrom=${from}&dateTo=${to}${report.query}`;
      const get = async () => {
        const res = await fetch(u, { headers });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${report.name}: ${res.status} ${body.slice(0, 300)}`);
        return body;
      };
      await get();
      const times: number[] = [];
      let body = '';
      for (let i = 0; i < reps; i++) {
        const t = performance.now();
        body = await get();
        times.push(performance.now() - t);
      }
      const row = {
        report: report.name,
        days,
        p50: pct(times, 0.5),
        p95: pct(times, 0.95),
        rows: rowsOf(body, report.query.includes('csv')),
      };
      timings.push(row);
      log(`${report.name} ${days}d: p50 ${Math.round(row.p50)} ms, p95 ${Math.round(row.p95)} ms (${row.rows} rows)`);
    }
  }
  return timings;
}

/** What the 30-day answers hold, to show every purpose, assistant referrals and misses were present. */
export async function reportCoverage(params: { base: string; key: string; endDay: number }): Promise<string> {
  const { base, key, endDay } = params;
  const headers = { authorization: `Bearer ${key}` };
  const range = `dateFrom=${new Date((endDay - DAYS) * DAY).toISOString().slice(0, 10)}&dateTo=${new Date(endDay * DAY).toISOString().slice(0, 10)}`;
  const get = async (path: string) =>
    (await (await fetch(`${base}/${path}?${range}&limit=250`, { headers })).json()) as Record<string, never>;
  const purposes = await get('ai/purposes');
  const referrals = await get('ai/referrals');
  const misses = await get('ai/misses');
  const v = (purposes.totals as { views: Record<string, number> }).views;
  const assistants = (referrals.assistants as { assistant: string; views: number }[])
    .map((a) => `${a.assistant} ${a.views}`)
    .join(', ');
  return `30 d views: human ${v.humanViews}, search index ${v.searchIndexViews}, training ${v.trainingViews}, assistant ${v.assistantViews}, agent ${v.agentViews}; referred by ${assistants}; misses rows on first page ${(misses.rows as unknown[]).length}`;
}
