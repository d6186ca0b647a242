/**
 * The analytics benchmarks' synthetic docs site (bench/analytics.ts, bench/storage.ts): 5,000 paths with Zipf
 * popularity, 1,000,000 visitors (10% AI agents across 7 agents, about 3% of humans referred by an AI assistant),
 * 30 days, generated deterministically, and its ingest through the HTTP batch endpoint.
 */
import { openSql } from '../src/analytics/store/sql.js';
import { recordRobotsVersion } from '../src/analytics/store/robots-txt.js';
import type { DatabaseTarget } from '../src/db/database-url.js';

export const DAY = 86_400_000;
export const PATHS = 5000;
export const VISITORS = 1_000_000;
export const DAYS = 30;
const BATCH = 10_000;
const IN_FLIGHT = 4;

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];
const AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  // an autonomous agent, so every purpose of /ai/purposes has traffic; agents still make up 10% of visitors
  'claude-code/1.0.72 (external, cli)',
];

/** Deterministic PRNG (mulberry32), so every run ingests the same site. */
export function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const zipf = (() => {
  const cdf = new Float64Array(PATHS);
  let sum = 0;
  for (let i = 0; i < PATHS; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < PATHS; i++) cdf[i] /= sum;
  return (u: number) => {
    let lo = 0;
    let hi = PATHS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
})();
export const pathName = (i: number) => `/docs/section-${i % 40}/page-${i}`;

/**
 * The site's docs navigation, as /ai/coverage counts it: its 40 sections with their first 4,500 pages, a page in
 * each that no one reads, and a section no one reads at all.
 */
export const NAVIGATION: { group: string; pages: string[] }[] = [
  ...Array.from({ length: 40 }, (_, section) => ({
    group: `Section ${section}`,
    pages: [
      ...Array.from({ length: PATHS }, (_, i) => i)
        .filter((i) => i % 40 === section && i < 4500)
        .map(pathName),
      `/docs/section-${section}/unlisted`,
    ],
  })),
  { group: 'Drafts', pages: ['/drafts/one', '/drafts/two'] },
];

/** The host the site's robots.txt versions are kept for. */
export const SITE_HOST = 'docs.example.com';

/**
 * The site's robots.txt over the 30 days before `endDay`: a version from before them, one coming into force
 * mid-day 20 days before the end (that day is judged view by view), and one at midnight 10 days before it.
 */
export function robotsVersions(endDay: number): { content: string; seenAt: number }[] {
  return [
    {
      seenAt: (endDay - 40) * DAY,
      content: 'User-agent: GPTBot\nDisallow: /docs/section-1/\n\nUser-agent: *\nDisallow: /docs/section-2/page-2\n',
    },
    {
      seenAt: (endDay - 20) * DAY + 5 * 3_600_000,
      content:
        'User-agent: ClaudeBot\nDisallow: /docs/section-3/\nDisallow: /*page-3$\n\nUser-agent: *\nDisallow: /docs/section-4/\n',
    },
    {
      seenAt: (endDay - 10) * DAY,
      content: 'User-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nDisallow: /docs/section-5/page-5\n',
    },
  ];
}

/**
 * About 3% of human visitors arrive from an AI assistant (for /ai/referrals). Chosen by visitor number, not drawn
 * from the generator, so paths, times and visitors — and the exports' answers — are those of a site without them.
 */
/**
 * The JSON of an event's path, referrer and user agent fields, by page and visitor. About 3% of human visitors arrive
 * from an AI assistant (for /ai/referrals), chosen by visitor number, not drawn from the generator, so paths, times
 * and visitors — and the exports' answers — are those of a site without them.
 */
const PATH_JSON = Array.from({ length: PATHS }, (_, i) => JSON.stringify(pathName(i)));
const REFERRED_JSON = Array.from({ length: PATHS }, (_, i) => ({
  chatgpt: `"path":${PATH_JSON[i]},"referrer":"https://chatgpt.com/"`,
  perplexity: `"path":${JSON.stringify(`${pathName(i)}?utm_source=perplexity`)},"referrer":"https://www.perplexity.ai/"`,
  chatgptUtm: `"path":${JSON.stringify(`${pathName(i)}?utm_source=chatgpt.com`)}`,
}));
const AGENTS_JSON = AGENTS.map((a) => JSON.stringify(a));
const BROWSERS_JSON = BROWSERS.map((b) => JSON.stringify(b));

function pathFields(v: number, page: number, ai: boolean): string {
  if (ai) return `"path":${PATH_JSON[page]}`;
  const r = v % 100;
  if (r === 1) return REFERRED_JSON[page].chatgpt;
  if (r === 2) return REFERRED_JSON[page].perplexity;
  if (r === 3) return REFERRED_JSON[page].chatgptUtm;
  return `"path":${PATH_JSON[page]}`;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Batches of events for `total` page views over the 30 days before `endDay`, in time order, as the JSON text of the
 * batch endpoint's body. Written as text, not JSON.stringify of objects: it is a third of the ingest's CPU otherwise,
 * on a 2-core machine where the server needs the rest.
 */
export function* batches(total: number, endDay: number, revisit?: number): Generator<string> {
  const random = rng(42);
  const draw = revisit ? revisitDraws(revisit) : () => plainDraw(random);
  const perDay = Math.floor(total / DAYS);
  let batch: string[] = [];
  for (let d = 0; d < DAYS; d++) {
    const start = (endDay - DAYS + d) * DAY;
    const date = new Date(start).toISOString().slice(0, 11); // YYYY-MM-DDT
    const count = d === DAYS - 1 ? total - perDay * (DAYS - 1) : perDay;
    const step = DAY / count;
    for (let i = 0; i < count; i++) {
      const { v, page } = draw();
      const ai = v % 10 === 0;
      const t = Math.floor(i * step);
      const time = `${date}${two(Math.floor(t / 3_600_000))}:${two(Math.floor(t / 60_000) % 60)}:${two(Math.floor(t / 1000) % 60)}.${three(t % 1000)}Z`;
      const userAgent = ai ? AGENTS_JSON[((v / 10) % AGENTS.length) | 0] : BROWSERS_JSON[v % BROWSERS.length];
      batch.push(
        `{"timestamp":"${time}",${pathFields(v, page, ai)},"userAgent":${userAgent},"ip":"10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}"}`,
      );
      if (batch.length === BATCH) {
        yield `[${batch.join(',')}]`;
        batch = [];
      }
    }
  }
  if (batch.length) yield `[${batch.join(',')}]`;
}

/** The plain site's next view: a visitor, then a page by popularity (the order `--revisit` replays). */
function plainDraw(random: () => number): { v: number; page: number } {
  const v = Math.floor(random() * VISITORS);
  return { v, page: zipf(random()) };
}

/**
 * Draws for `--revisit N`: each view is one of the (visitor, page) pairs of the first N views of the plain site, drawn
 * uniformly, so a larger set has more views — each pair seen on several days — but about the same distinct pairs,
 * visitors and pages as the N-view set (the distinct things the reports count).
 */
function revisitDraws(base: number): () => { v: number; page: number } {
  const random = rng(42);
  const visitors = new Uint32Array(base);
  const pages = new Uint16Array(base);
  for (let j = 0; j < base; j++) {
    const { v, page } = plainDraw(random);
    visitors[j] = v;
    pages[j] = page;
  }
  const pick = rng(7);
  return () => {
    const j = Math.floor(pick() * base);
    return { v: visitors[j], page: pages[j] };
  };
}

/** Ingests `size` page views over the 30 days before `endDay`: IN_FLIGHT batches on the wire while the next one is generated. */
export async function ingestViews(params: {
  url: string;
  projectId: string;
  key: string;
  size: number;
  endDay: number;
  /** draw the views from the pairs of the plain site's first `revisit` views (see revisitDraws) */
  revisit?: number;
}): Promise<{ accepted: number; seconds: number }> {
  const headers = { authorization: `Bearer ${params.key}`, 'content-type': 'application/json' };
  const started = performance.now();
  let accepted = 0;
  const pending = new Set<Promise<void>>();
  for (const body of batches(params.size, params.endDay, params.revisit)) {
    const p: Promise<void> = fetch(`${params.url}/v1/analytics/${params.projectId}/events`, {
      method: 'POST',
      headers,
      body,
    })
      .then(async (res) => {
        const out = (await res.json()) as { accepted: number; rejected: unknown[] };
        if (res.status !== 202 || out.rejected.length)
          throw new Error(`ingest failed: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
        accepted += out.accepted;
      })
      .finally(() => pending.delete(p));
    pending.add(p);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  }
  await Promise.all(pending);
  return { accepted, seconds: (performance.now() - started) / 1000 };
}

/** Keeps the site's robots.txt versions (robotsVersions) for the project, as `scribe robots import` does. */
export async function storeRobotsVersions(target: DatabaseTarget, projectId: string, endDay: number): Promise<void> {
  const sql = openSql(target);
  try {
    for (const { content, seenAt } of robotsVersions(endDay))
      await recordRobotsVersion(sql, { projectId, host: SITE_HOST, content, seenAt });
  } finally {
    await sql.close();
  }
}
