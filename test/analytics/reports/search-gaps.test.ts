import type { Project } from '../../../src/projects/projects.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { PROVIDERS } from '../../support/databases.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Search = { query: string; visitorId?: string; clickedPath?: string; timestamp: number };

/** The search gaps of a range recounted from the submissions themselves: what the problems queue must answer. */
function naiveGaps(searches: Search[], from: number, to: number, minSearches: number) {
  const terms = new Map<string, { searches: number; clicks: number; readers: Set<string>; anonymous: number }>();
  for (const s of searches) {
    if (s.timestamp < from || s.timestamp >= to) continue;
    const term = terms.get(s.query) ?? { searches: 0, clicks: 0, readers: new Set<string>(), anonymous: 0 };
    terms.set(s.query, term);
    if (s.clickedPath) term.clicks++;
    else {
      term.searches++;
      if (s.visitorId) term.readers.add(s.visitorId);
      else term.anonymous++;
    }
  }
  return [...terms]
    .filter(([, t]) => t.clicks === 0 && t.searches >= minSearches)
    .map(([query, t]) => `${query} ${t.searches} ${t.readers.size + t.anonymous}`)
    .sort();
}

describe.each(PROVIDERS)('search gaps on %s', (provider) => {
  let app: TestApp;
  let project: Project;
  const searches: Search[] = [];
  beforeAll(async () => {
    app = await startTestApp({ provider, routes: [], clock: () => new Date(START + 12 * DAY) });
    project = await app.project();
    const random = rng(33);
    const words = ['sandbox', 'java sdk', 'webhooks', 'rate limits', 'sso', 'billing', 'retry', 'oauth', 'cli', 'go'];
    for (let i = 0; i < 600; i++) {
      const query = words[Math.floor(random() ** 2 * words.length)];
      const visitor = Math.floor(random() * 60);
      searches.push({
        query,
        // one in ten without a visitor id: each counts as a reader of its own
        ...(visitor < 6 ? {} : { visitorId: `v${visitor}` }),
        // clicks are rare, so some terms are gaps in some ranges and not in others
        ...(random() < 0.03 ? { clickedPath: '/guides/start' } : {}),
        timestamp: START + Math.floor(random() * 10 * DAY),
      });
    }
    for (let i = 0; i < searches.length; i += 100) {
      const result = await app.services.analytics
        .readerSignals()
        .submitSearches(project.id, searches.slice(i, i + 100));
      expect(result.rejected).toEqual([]);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('names every term searched often enough that nobody clicked, with exact readers, over edges and whole days', async () => {
    const signals = app.services.analytics.problemSignals();
    const random = rng(7);
    const ranges: [number, number][] = [
      [START, START + 10 * DAY],
      [START + 3 * DAY, START + 4 * DAY],
      [START + 2 * DAY + 3_600_000, START + 2 * DAY + 7_200_000],
      [START - DAY, START + 20 * DAY],
    ];
    for (let i = 0; i < 14; i++) {
      const a = START + Math.floor(random() * 10 * DAY);
      const b = START + Math.floor(random() * 10 * DAY);
      ranges.push([Math.min(a, b), Math.max(a, b) + 1]);
    }
    let gapsSeen = 0;
    for (const [from, to] of ranges) {
      for (const minSearches of [1, 2, 5]) {
        const terms = await signals.searchTerms({
          projectId: project.id,
          range: { from, to },
          gapsOnly: true,
          minSearches,
        });
        const expected = naiveGaps(searches, from, to, minSearches);
        expect({
          from,
          to,
          minSearches,
          gaps: terms.map((t) => `${t.query} ${t.searches} ${t.readers}`).sort(),
        }).toEqual({ from, to, minSearches, gaps: expected });
        gapsSeen += expected.length;
      }
    }
    // the ranges hold gaps and terms that are not (a test of nothing passes on nothing)
    expect(gapsSeen).toBeGreaterThan(20);
    expect(naiveGaps(searches, START, START + 10 * DAY, 1).length).toBeLessThan(10);
  });
});
