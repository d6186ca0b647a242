import { countVisitors, type Counts } from '../../../src/analytics/reports/visitors.js';
import { SITE_PAGE } from '../../../src/analytics/store/day-sets.js';
import {
  describeAiReport,
  event,
  expectKeptUntilFolded,
  storeFolded,
  useReportStore,
} from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import type { Row, Sql } from '../../../src/analytics/store/sql.js';
import { insertEvents } from '../../../src/analytics/store/write-events.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { rebuildMark } from '../../../src/analytics/store/rollups/rollup-marks.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';
import { readsOf, recordingSql } from '../../support/recording-sql.js';
import { DAY_MS } from '../../../src/calendar.js';

/** The pages a report shows (one page of its rows): their figures must be whole, and no other page's given. */
const SHOWN = ['/p1', '/p4', '/p9'];

/** Distinct human, AI and either visitor ids of events, as the export counts them. */
function naiveCounts(events: RawEvent[]): Counts {
  const ids = (kinds: number[]) => new Set(events.filter((e) => kinds.includes(e.kind)).map((e) => e.visitorId)).size;
  return { human: ids([1]), ai: ids([2]), total: ids([1, 2]) };
}

describeAiReport({
  name: 'visitors of some pages alone',
  report: async (ctx, range) => {
    const every = await countVisitors({ ...ctx, range });
    const ids = [...(await ctx.dictionaries.paths(ctx.sql, ctx.projectId, [...every.pages.keys()]))]
      .filter(([, path]) => SHOWN.includes(path))
      .map(([id]) => id);
    const some = await countVisitors({ ...ctx, range, pages: [SITE_PAGE, ...ids] });
    const paths = await ctx.dictionaries.paths(ctx.sql, ctx.projectId, [...some.pages.keys()]);
    return {
      totals: some.totals,
      pages: Object.fromEntries([...some.pages].map(([id, counts]) => [paths.get(id) ?? `#${id}`, counts])),
    };
  },
  naive: (events, range) => {
    const counted = events.filter((e) => e.ts >= range.from && e.ts < range.to && (e.kind === 1 || e.kind === 2));
    const pages = SHOWN.flatMap((path) => {
      const on = counted.filter((e) => e.path === path);
      return on.length ? [[path, naiveCounts(on)] as const] : [];
    });
    return { totals: naiveCounts(counted), pages: Object.fromEntries(pages) };
  },
});

describe.each(PROVIDERS)('every page’s visitors on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('are counted once for a range of whole folded days and again after a fold changes one of them', async () => {
    const at = (d: number) => Date.UTC(2026, 10, d, 10);
    const range = { from: Date.UTC(2026, 10, 19), to: Date.UTC(2026, 10, 21) };
    await storeFolded(ctx(), [
      event({ ts: at(19), kind: 1, visitorHash: 'a' }),
      event({ ts: at(20), kind: 2, visitorHash: 'b', agent: 'GPTBot' }),
    ]);
    // every page of an export's rows asks again: the same counts, not counted again
    const folded = await expectKeptUntilFolded({
      ...ctx(),
      answer: () => countVisitors({ ...ctx(), range }),
      late: [event({ ts: at(20), kind: 1, visitorHash: 'c' })],
      expected: { before: { human: 1, ai: 1, total: 2 }, after: { human: 2, ai: 1, total: 3 } },
    });
    // some pages' counts are kept apart, by the pages asked
    const [page] = folded.pages.keys();
    const some = await countVisitors({ ...ctx(), range, pages: [page] });
    expect(some).not.toBe(folded);
    expect(some.pages).toEqual(new Map([[page, folded.pages.get(page)]]));
    expect(await countVisitors({ ...ctx(), range, pages: [page] })).toBe(some);
    expect((await countVisitors({ ...ctx(), range, pages: [] })).pages.size).toBe(0);
  });
});

describe('visitors of a range read raw', () => {
  it('are counted however many events the range holds (a rebuild, or a fold far behind, reads it all raw)', async () => {
    const events = Array.from({ length: 400_000 }, (_, i) => ({
      pageId: 1 + (i % 7),
      visitorId: i % 250_000,
      kind: 1 + (i % 2),
    }));
    // a database whose statements each answer the rows of the table they read: the project's rebuild under way (its
    // mark), so the whole range is read raw, and these events
    const tables: Record<string, Row[]> = {
      AnalyticsState: [{ name: rebuildMark('p'), value: 1 }],
      AnalyticsEvent: events,
    };
    const sql = { query: async (text: string) => tables[/FROM "(\w+)"/.exec(text)![1]] ?? [] } as unknown as Sql;
    const cache = new DayCache(1 << 20);
    const counts = await countVisitors({ sql, cache, projectId: 'p', range: { from: 0, to: 1 } });
    const distinct = (kinds: number[]) =>
      new Set(events.filter((e) => kinds.includes(e.kind)).map((e) => e.visitorId)).size;
    expect(counts.totals).toEqual({ human: distinct([1]), ai: distinct([2]), total: distinct([1, 2]) });
    expect(counts.pages.size).toBe(7);
  });
});

describe.each(PROVIDERS)('visitors of a range on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('plan the range once, kept or counted, whole days only or with a day read raw', async () => {
    const first = Date.UTC(2026, 10, 1) / DAY_MS;
    const range = { from: first * DAY_MS, to: (first + 30) * DAY_MS };
    // a view on each of 30 days, folded; then, in one project, a view of the 20th not folded yet
    const daily = (visitorHash: string) =>
      Array.from({ length: 30 }, (_, d) => event({ ts: (first + d) * DAY_MS + 1000, kind: 1, visitorHash }));
    for (const projectId of ['whole', 'late']) await insertEvents({ ...ctx(), projectId, events: daily(projectId) });
    await foldEvents(ctx().sql);
    const rawDay = first + 19;
    await insertEvents({
      ...ctx(),
      projectId: 'late',
      events: [event({ ts: rawDay * DAY_MS + 5000, kind: 1, visitorHash: 'late' })],
    });
    for (const projectId of ['whole', 'late']) {
      const { recording, statements } = recordingSql(ctx().sql);
      const cache = new DayCache(1 << 20);
      const counts = await countVisitors({ sql: recording, cache, projectId, range });
      expect(counts.totals).toEqual({ human: 1, ai: 0, total: 1 });
      // the derived days' sets read in one statement, each day once (the day read raw is not among them); the plan (it
      // starts with the fold's watermark) and the days' generations read once for the whole range
      const [daySets, ...more] = readsOf(statements, 'AnalyticsDaySet');
      expect(more).toEqual([]);
      const days = (daySets[1] as unknown[]).slice(1);
      expect(new Set(days).size).toBe(days.length);
      expect(days).toHaveLength(projectId === 'whole' ? 30 : 29);
      expect(days.includes(rawDay)).toBe(projectId === 'whole');
      expect(readsOf(statements, 'AnalyticsState')).toHaveLength(1);
      expect(readsOf(statements, 'AnalyticsDay')).toHaveLength(1);
    }
  });
});
