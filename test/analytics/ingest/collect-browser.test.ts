import type { Db } from '../../../src/db/client.js';
import { BrowserCollector, type BrowserHit } from '../../../src/analytics/ingest/collect-browser.js';
import type { PageView } from '../../../src/analytics/ingest/prepare-event.js';
import { createLogger } from '../../../src/logger.js';
import { droppedSubmissions } from '../../../src/metrics/metrics.js';

/** `scribe_dropped_submissions_total` as "reason submission" → count */
async function dropCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const v of (await droppedSubmissions.get()).values)
    counts[`${v.labels.reason} ${v.labels.submission}`] = v.value;
  return counts;
}

/** the drops counted while `run` ran, without the zeros */
async function dropsDuring(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await dropCounts();
  await run();
  const after = await dropCounts();
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, value]) => [key, value - (before[key] ?? 0)] as const)
      .filter(([, value]) => value > 0),
  );
}

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Projects as the database would return them: prj_on is enabled for docs.example.com, prj_off is disabled. */
const db = {
  project: {
    findUnique: async ({ where }: { where: { id: string } }) =>
      ({
        prj_on: { id: 'prj_on', hostnames: '["docs.example.com"]', source: 'manual', disabledAt: null },
        prj_off: { id: 'prj_off', hostnames: '["docs.example.com"]', source: 'manual', disabledAt: new Date(0) },
      })[where.id] ?? null,
  },
} as unknown as Db;

function collector(maxEvents: number) {
  const ingested: { projectId: string; views: PageView[] }[] = [];
  const feedback: unknown[] = [];
  const searches: unknown[] = [];
  const ok = { accepted: 1, duplicates: 0, rejected: [] };
  const browser = new BrowserCollector({
    db,
    commit: { maxEvents, maxDelayMs: 5 },
    ingest: async (projectId, views) => void ingested.push({ projectId, views }),
    signals: () => ({
      submitFeedback: async (projectId, items, onKey) => {
        feedback.push({ projectId, items, onKey });
        return ok;
      },
      submitSearches: async (projectId, items) => {
        searches.push({ projectId, items });
        return ok;
      },
    }),
    clock: () => new Date(1_700_000_000_000),
    logger: createLogger('silent'),
  });
  return { browser, ingested, feedback, searches };
}

const hit = (over: Partial<BrowserHit> = {}): BrowserHit => ({
  projectId: 'prj_on',
  url: 'https://docs.example.com/guide',
  origin: 'https://docs.example.com',
  userAgent: CHROME,
  ip: '203.0.113.9',
  ...over,
});

describe('browser collection', () => {
  it("commits a project's page views together and drops those of other sites, origins and disabled projects", async () => {
    const { browser, ingested } = collector(100);
    const drops = await dropsDuring(() =>
      Promise.all([
        browser.pageView({ ...hit(), referrer: null }),
        browser.pageView({ ...hit({ url: 'https://elsewhere.example/guide' }), referrer: null }),
        browser.pageView({ ...hit({ origin: 'https://elsewhere.example' }), referrer: null }),
        browser.pageView({ ...hit({ url: 'https://docs.example.com/api' }), referrer: 'https://claude.ai/' }),
        browser.pageView({ ...hit({ projectId: 'prj_off' }), referrer: null }),
        browser.pageView({ ...hit({ projectId: 'prj_unknown' }), referrer: null }),
        browser.pageView({ ...hit({ projectId: 'prj_unknown' }), referrer: null }),
      ]),
    );
    expect(drops).toEqual({
      'host_not_listed page_view': 2,
      'disabled_project page_view': 1,
      'unknown_project page_view': 2,
    });
    expect(ingested).toEqual([
      {
        projectId: 'prj_on',
        views: [
          { timestamp: 1_700_000_000_000, url: hit().url, userAgent: CHROME, ip: hit().ip, referrer: null },
          {
            timestamp: 1_700_000_000_000,
            url: 'https://docs.example.com/api',
            userAgent: CHROME,
            ip: hit().ip,
            referrer: 'https://claude.ai/',
          },
        ],
      },
    ]);
  });

  it('stores each page view on its own with one event per commit', async () => {
    const { browser, ingested } = collector(1);
    await browser.pageView({ ...hit(), referrer: null });
    await browser.pageView({ ...hit(), referrer: null });
    expect(ingested.map((i) => i.views.length)).toEqual([1, 1]);
  });

  it('takes feedback and searches only from people on the project site, with an address', async () => {
    const { browser, feedback, searches } = collector(100);
    const drops = await dropsDuring(async () => {
      await browser.feedback(hit(), { helpful: true, comment: 'clear', submission: 'abcdefgh' });
      await browser.feedback(hit({ userAgent: 'curl/8.0' }), { helpful: false });
      await browser.feedback(hit({ ip: undefined }), { helpful: false });
      await browser.feedback(hit({ projectId: 'prj_unknown' }), { helpful: false });
      await browser.search(hit({ origin: 'https://elsewhere.example' }), { query: 'install' });
      await browser.search(hit({ userAgent: undefined }), { query: 'install' });
      await browser.search(hit({ projectId: 'prj_off' }), { query: 'install' });
      await browser.search(hit(), { query: 'install', clickedPath: '../start?x=1' });
    });
    expect(drops).toEqual({
      'bot feedback': 1,
      'unknown_project feedback': 1,
      'host_not_listed search': 1,
      'bot search': 1,
      'disabled_project search': 1,
    });
    expect(feedback).toEqual([
      {
        projectId: 'prj_on',
        items: [
          {
            ip: hit().ip,
            userAgent: CHROME,
            path: hit().url,
            helpful: true,
            comment: 'clear',
            submission: 'abcdefgh',
          },
        ],
        onKey: 'update',
      },
    ]);
    expect(searches).toEqual([
      { projectId: 'prj_on', items: [{ ip: hit().ip, userAgent: CHROME, query: 'install', clickedPath: '/start' }] },
    ]);
  });
});
