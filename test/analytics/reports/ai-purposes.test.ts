import { purposeSplit, purposeViews } from '../../../src/analytics/reports/ai-purposes.js';
import { describeAiReport, event, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { naivePurposes } from '../../support/naive-ai-reports.js';
import { offsetPage } from '../../../src/analytics/reports/offset-page.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';

describeAiReport({
  name: 'ai/purposes',
  report: (ctx, range) => purposeSplit({ ...ctx, range }),
  naive: (events, range) => ({ ...naivePurposes(events, range), hasMore: false }),
});

// the CSV's rows: every page's views, no visitors counted
describeAiReport({
  name: 'ai/purposes views (the CSV)',
  report: (ctx, range) => purposeViews({ ...ctx, range }),
  naive: (events, range) => naivePurposes(events, range).pages.map(({ path, views }) => ({ path, views })),
});

// the JSON answer's pages: only the rows that can be on the asked page are built, ties at its edges as in the whole
for (const page of [
  { offset: 2, limit: 3 },
  { offset: 0, limit: 1 },
]) {
  describeAiReport({
    name: `ai/purposes, ${page.limit} page row(s) from row ${page.offset}`,
    report: (ctx, range) => purposeSplit({ ...ctx, range, page }),
    naive: (events, range) => {
      const { totals, pages } = naivePurposes(events, range);
      const { rows, hasMore } = offsetPage(pages, page);
      return { totals, pages: rows, hasMore };
    },
  });
}

describe.each(PROVIDERS)('ai/purposes visitors on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('counts a visitor id once per whole cell, not once per part', async () => {
    const { store } = ctx();
    await store.insertEvents('p1', [
      // one caller visitorId seen with a browser and as GPTBot; another used by two AI agents, one of them twice
      event({ kind: 1, visitorHash: 'caller-1' }),
      event({ kind: 2, visitorHash: 'caller-1', agent: 'GPTBot', verification: 1 }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'ChatGPT-User', verification: 2 }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'Claude-Code', verification: 2, path: '/b' }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'Claude-Code', verification: 2, path: '/b' }),
    ]);
    await store.fold();
    const range = { from: Date.UTC(2026, 10, 20), to: Date.UTC(2026, 10, 21) };
    const { totals, pages } = await purposeSplit({ ...ctx(), range });
    expect(totals.views).toMatchObject({ humanViews: 1, aiViews: 4, otherAiViews: 3, totalViews: 5 });
    expect(totals.visitors).toMatchObject({
      humanViews: 1,
      aiViews: 2,
      trainingViews: 1,
      assistantViews: 1,
      agentViews: 1,
      otherAiViews: 1,
      totalViews: 2,
    });
    expect(pages.find((p) => p.path === '/a')!.visitors).toMatchObject({ humanViews: 1, aiViews: 2, totalViews: 2 });
  });

  it('reads no bitmaps of the agent cells when the gap counts answer, and reads them when they cannot', async () => {
    const { store } = ctx();
    const projectId = 'p-bitmaps';
    await store.insertEvents(projectId, [
      event({ kind: 2, ts: Date.UTC(2026, 10, 22, 9), visitorHash: 'v-1', agent: 'GPTBot', verification: 1 }),
      event({ kind: 2, ts: Date.UTC(2026, 10, 23, 9), visitorHash: 'v-1', agent: 'GPTBot', verification: 1 }),
      event({ kind: 2, ts: Date.UTC(2026, 10, 23, 9), visitorHash: 'v-2', agent: 'ClaudeBot', verification: 1 }),
      event({ kind: 1, ts: Date.UTC(2026, 10, 24, 9), visitorHash: 'v-3', path: '/b' }),
    ]);
    await store.fold();
    // whole days, 32 of them
    const range = { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 11, 3) };
    const read: { bitmaps: boolean; segment: string }[] = [];
    const spied = Object.create(store) as typeof store;
    spied.agentDays = (id, from, to, options = {}) => {
      read.push({ bitmaps: !options.viewsOnly, segment: '' });
      return store.agentDays(id, from, to, options);
    };
    spied.segment = (id, name, version) => {
      read.push({ bitmaps: name.startsWith('agents:'), segment: name });
      return store.segment(id, name, version);
    };
    const fromGaps = await purposeSplit({ store: spied, cache: new DayCache(1 << 24), projectId, range });
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((r) => r.bitmaps)).toEqual([]);
    // v-1 as GPTBot on two days and v-2 as ClaudeBot: two AI visitors, both training crawlers; v-3 a reader
    expect(fromGaps.totals.visitors).toMatchObject({ trainingViews: 2, aiViews: 2, humanViews: 1, totalViews: 3 });
    expect(fromGaps.totals.views).toMatchObject({ trainingViews: 3, aiViews: 3, humanViews: 1 });
    // a rebuild under way: the gap counts cannot answer, so the same call unites the cells' bitmaps, to the same answer
    read.length = 0;
    spied.gapCountsReady = async () => false;
    expect(await purposeSplit({ store: spied, cache: new DayCache(1 << 24), projectId, range })).toEqual(fromGaps);
    expect(read.filter((r) => r.bitmaps).length).toBeGreaterThan(0);
  });
});
