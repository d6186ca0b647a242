import { purposeSplit, purposeViews } from '../../../src/analytics/reports/ai-purposes.js';
import { describeAiReport, event, storeFolded, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { naivePurposes } from '../../support/naive-ai-reports.js';
import { offsetPage } from '../../../src/analytics/reports/offset-page.js';

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
    await storeFolded(ctx(), [
      // one caller visitorId seen with a browser and as GPTBot; another used by two AI agents, one of them twice
      event({ kind: 1, visitorHash: 'caller-1' }),
      event({ kind: 2, visitorHash: 'caller-1', agent: 'GPTBot', verification: 1 }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'ChatGPT-User', verification: 2 }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'Claude-Code', verification: 2, path: '/b' }),
      event({ kind: 2, visitorHash: 'caller-2', agent: 'Claude-Code', verification: 2, path: '/b' }),
    ]);
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
});
