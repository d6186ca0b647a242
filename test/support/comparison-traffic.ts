import { DAY_MS, HOUR_MS } from '../../src/calendar.js';
import { seeded } from './ai-traffic.js';

/**
 * One deterministic data set for comparing two analytics stores over HTTP: server-side event batches and combined
 * access logs, in two waves — the second all late (days the first wave filled, folded or shipped by then) and
 * repeating some of the first's idempotency keys and log lines. Humans (some sent by AI assistants), AI agents of
 * every purpose (GPTBot inside its range: verified; outside it: spoofed; the others unverifiable), an unidentified
 * agent (raw Markdown read by a browser's user agent), other bots, multi-byte and CSV-awkward paths, and events
 * exactly at midnight UTC and 1 ms either side. Days are counted from DAY0; the clock stands at NOW.
 */

export const DAY0 = Date.UTC(2026, 10, 10); // 2026-11-10
/** The apps' clock: day 6, 10:00 UTC (the default range reaches back to day -24). */
export const NOW = DAY0 + 6 * DAY_MS + 10 * HOUR_MS;
/** The instant `ms` after midnight UTC of day `day` (counted from DAY0). */
export const at = (day: number, ms = 0) => DAY0 + day * DAY_MS + ms;

export const MULTI_BYTE_PATHS = ['/docs/ünïcode/日本', '/docs/emoji/🚀✨'];
/** A page read only by other bots and spoofed AI agents: in no visitors row, in the purposes' unverified column. */
export const BOTS_ONLY_PATH = '/bots-only';
const PATHS = ['/', '/docs/start', '/docs/api/ref', '/c,d', '/q"uote', '/=sum', ...MULTI_BYTE_PATHS];
/** The pages the data set reads, as the docs would list them. */
export const PAGE_PATHS: readonly string[] = PATHS;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const AI_AGENTS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-Code', 'PerplexityBot'];
const BOTS = ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'curl/8.4.0'];
const REFERRERS = [
  'https://chatgpt.com/c/1',
  'https://www.perplexity.ai/search?q=scribe',
  'https://www.google.com/',
  null,
  null,
];

/** The published range the ranges file gives GPTBot (tests write it with ai-traffic.ts's writeRangesFile). */
const INSIDE_GPTBOT_RANGE = (n: number) => `192.0.2.${n}`;
const OUTSIDE_ANY_RANGE = (n: number) => `198.51.100.${n}`;

/** A server-side event as `POST /v1/analytics/:projectId/events` takes it. */
export interface ServerEvent {
  id?: string;
  timestamp: string;
  path: string;
  userAgent: string;
  ip?: string;
  visitorId?: string;
  referrer?: string | null;
}

/** A browser tracker hit (`POST /api/event`): stamped by the server's clock, its address sent as X-Forwarded-For. */
export interface TrackerHit {
  url: string;
  referrer: string | null;
  userAgent: string;
  ip: string;
}

export interface Wave {
  /** event batches, in the order they are posted (a repeated one is a client's retry) */
  batches: ServerEvent[][];
  /** tracker hits, posted one at a time */
  hits: TrackerHit[];
  /** access logs (combined format), in the order they are imported (a repeated one adds nothing) */
  logs: string[];
}

/** `ms` written as an ISO 8601 date-time at the zone `offsetMinutes` east of UTC. */
function isoAt(ms: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** An instant on one of `days`: a third of them at midnight, 1 ms after it or 1 ms (or 1 s) before the next. */
function instant(next: (n: number) => number, days: number[]): number {
  const day = days[next(days.length)]!;
  // today only up to the clock (a few minutes past it is accepted, see `future` below)
  const length = day === 6 ? NOW - at(6) : DAY_MS;
  if (next(3) === 0) return at(day, [0, 1, length - 1, length - 1000][next(4)]!);
  return at(day, next(length));
}

/** `count` events on `days`; ids `<prefix>-<n>`, some unkeyed, some keys repeated within the batch. */
function events(next: (n: number) => number, params: { count: number; days: number[]; prefix: string }) {
  const batch: ServerEvent[] = [];
  for (let i = 0; i < params.count; i++) {
    const timestamp = isoAt(instant(next, params.days), [0, 0, 0, 60, -330][next(5)]!);
    const path = PATHS[next(PATHS.length)]!;
    // humans and agents draw from the same visitor ids: one id seen as a browser and as GPTBot counts once
    const visitorId = next(2) === 0 ? `reader-${next(40)}` : undefined;
    const who = next(100);
    let event: ServerEvent;
    if (who < 40) {
      const referrer = REFERRERS[next(REFERRERS.length)];
      const ip = `203.0.113.${next(30)}`;
      event = { timestamp, path, userAgent: [CHROME, FIREFOX][next(2)]!, ip, visitorId, referrer };
    } else if (who < 45) {
      event = { timestamp, path: next(4) === 0 ? '/llms.txt' : `${path}.md`, userAgent: CHROME, ip: '203.0.113.99' };
    } else if (who < 85) {
      const agent = AI_AGENTS[next(AI_AGENTS.length)]!;
      const spoofed = agent === 'GPTBot' && next(3) === 0;
      const ip = spoofed ? OUTSIDE_ANY_RANGE(next(8)) : INSIDE_GPTBOT_RANGE(next(30));
      event = { timestamp, path: spoofed && i % 2 === 0 ? BOTS_ONLY_PATH : path, userAgent: ua(agent), ip, visitorId };
    } else {
      const userAgent = BOTS[next(BOTS.length)]!;
      event = { timestamp, path: i % 2 === 0 ? BOTS_ONLY_PATH : path, userAgent, ip: `203.0.113.${next(5)}` };
    }
    const keyed = next(10);
    if (keyed < 7) event.id = `${params.prefix}-${i}`;
    else if (keyed < 8) event.id = `${params.prefix}-repeat-${next(5)}`;
    batch.push(event);
  }
  return batch;
}

/** Tracker hits from browsers (some sent by assistants), AI agents and a bot, on the site's own URLs. */
function trackerHits(next: (n: number) => number, count: number): TrackerHit[] {
  return Array.from({ length: count }, () => {
    const url = `https://docs.example.com${PATHS[next(PATHS.length)]!}${next(3) === 0 ? '?ref=x#part' : ''}`;
    const who = next(10);
    if (who < 5) {
      const referrer = REFERRERS[next(REFERRERS.length)] ?? null;
      return { url, referrer, userAgent: [CHROME, FIREFOX][next(2)]!, ip: `203.0.113.${next(30)}` };
    }
    if (who < 9) {
      const agent = AI_AGENTS[next(AI_AGENTS.length)]!;
      const ip = agent === 'GPTBot' && next(2) === 0 ? OUTSIDE_ANY_RANGE(next(8)) : INSIDE_GPTBOT_RANGE(next(30));
      return { url, referrer: null, userAgent: ua(agent), ip };
    }
    return { url, referrer: null, userAgent: BOTS[0]!, ip: '203.0.113.3' };
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The CLF time of `ms` (whole seconds) at UTC. */
function clfTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/**
 * A combined access log: page views (humans and AI agents, answered 200), AI requests answered 404, 410 or 503
 * (the misses), a human's 404 and an asset (counted nowhere), some lines repeated within the log (each counts).
 */
function accessLog(next: (n: number) => number, params: { lines: number; days: number[] }): string {
  const lines: string[] = [];
  for (let i = 0; i < params.lines; i++) {
    // the log's clock has whole seconds: its day edges are midnight and the second before it
    const ms = Math.floor(instant(next, params.days) / 1000) * 1000;
    const path = [...PATHS, '/old-page', '/removed', '/docs/gelöscht'][next(PATHS.length + 3)]!;
    const who = next(10);
    const [ip, agent] =
      who < 3
        ? [`203.0.113.${next(30)}`, CHROME]
        : who < 9
          ? [INSIDE_GPTBOT_RANGE(next(30)), ua(AI_AGENTS[next(AI_AGENTS.length)]!)]
          : [`203.0.113.${next(5)}`, BOTS[0]!];
    const status = [200, 200, 200, 404, 410, 503][next(6)]!;
    const target = next(12) === 0 ? '/logo.png' : path;
    const referrer = who < 3 ? (REFERRERS[next(REFERRERS.length)] ?? '-') : '-';
    // quotes in the request line escaped as Apache writes them
    const request = `GET ${target.replaceAll('"', '\\"')} HTTP/1.1`;
    const line = `${ip} - - [${clfTime(ms)}] "${request}" ${status} 512 "${referrer}" "${agent}"`;
    lines.push(line);
    if (next(15) === 0) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/** The first wave: days -20 and 0 to 6, a retried batch and a log. */
export function firstWave(): Wave {
  const next = seeded(17_2026);
  const days = [-20, 0, 1, 2, 3, 4, 5, 6];
  const batches = Array.from({ length: 5 }, (_, b) => events(next, { count: 200, days, prefix: `w1b${b}` }));
  // a few events stamped ahead of the clock: within the allowed skew (accepted) and beyond it (refused)
  batches[4]!.push(
    { id: 'future-ok', timestamp: isoAt(NOW + 60_000, 0), path: '/', userAgent: CHROME, ip: '203.0.113.1' },
    { id: 'future-no', timestamp: isoAt(NOW + 600_000, 0), path: '/', userAgent: CHROME, ip: '203.0.113.1' },
  );
  const log = accessLog(next, { lines: 120, days });
  return { batches: [...batches, batches[0]!], hits: trackerHits(next, 40), logs: [log] };
}

/**
 * The second wave, after the first was folded and shipped: late events on the days the first filled, first-wave
 * batches sent again (their keys already claimed), a new log and the first log again.
 */
export function secondWave(first: Wave): Wave {
  const next = seeded(24_1126);
  const days = [-20, 0, 1, 2, 3, 4, 5];
  const late = Array.from({ length: 3 }, (_, b) => events(next, { count: 150, days, prefix: `w2b${b}` }));
  const log = accessLog(next, { lines: 80, days });
  return { batches: [...late, first.batches[1]!, late[0]!], hits: [], logs: [log, first.logs[0]!] };
}
