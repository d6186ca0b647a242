import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PageView } from '../../src/analytics/ingest/prepare-event.js';

/**
 * Deterministic AI-traffic page views for report tests: humans (some sent by assistants), AI agents of every purpose
 * (GPTBot inside and outside its operator's range, so verified and spoofed), unidentified agents, other bots,
 * re-sent idempotency keys and awkward paths (commas, quotes, a leading `=`), over several UTC days.
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const AGENTS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-Code', 'PerplexityBot'];
const PATHS = ['/a', '/b', '/guide/x', '/c,d', '/q"uote', '/=sum', '/api/ref', '/deep/page'];
const REFERRERS = ['https://chatgpt.com/c/1', 'https://www.perplexity.ai/search', null, null];

/** The published range GPTBot is verified against (RFC 5737 documentation addresses). */
export const GPTBOT_RANGE = '192.0.2.0/24';

/** A ranges file naming only GPTBot's range; the caller removes `dir`. */
export function writeRangesFile(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ranges-'));
  const file = path.join(dir, 'ranges.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      sources: [
        {
          operator: 'OpenAI',
          agents: ['GPTBot'],
          url: 'https://openai.com/gptbot.json',
          creationTime: null,
          prefixes: [GPTBOT_RANGE],
        },
      ],
    }),
  );
  return { dir, file };
}

/** `count` page views from `start` (ms) over `days` days, the same for the same arguments. */
export function aiTrafficViews(params: { start: number; days: number; count: number }): PageView[] {
  const next = seeded(20261124);
  const views: PageView[] = [];
  for (let i = 0; i < params.count; i++) {
    const timestamp = params.start + next(params.days * 24 * 60) * 60_000 + next(60_000);
    const url = PATHS[next(PATHS.length)];
    const who = next(10);
    let view: PageView;
    if (who < 4) {
      const referrer = REFERRERS[next(REFERRERS.length)];
      view = { timestamp, url, userAgent: CHROME, ip: `203.0.113.${next(40)}`, referrer };
    } else if (who < 9) {
      const agent = AGENTS[next(AGENTS.length)];
      // GPTBot from inside its range is verified, from outside spoofed; the others have no published range
      const ip = agent === 'GPTBot' && next(3) === 0 ? `198.51.100.${next(8)}` : `192.0.2.${next(30)}`;
      view = { timestamp, url, userAgent: ua(agent), ip };
    } else {
      view = { timestamp, url, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)', ip: `203.0.113.${next(5)}` };
    }
    if (next(8) === 0) view.key = `k${next(20)}`;
    views.push(view);
  }
  return views;
}

/** A small deterministic generator (mulberry32): `next(n)` is an integer in [0, n). */
export function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
