import { aiReferrals } from '../../../src/analytics/reports/ai-referrals.js';
import { offsetPage } from '../../../src/analytics/reports/offset-page.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naiveReferrals } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'ai/referrals',
  report: (ctx, range) => aiReferrals({ ...ctx, range }),
  naive: (events, range) => ({ ...naiveReferrals(events, range), hasMore: false }),
});

// a page of the rows: chosen by views before any visitor is counted, then only their pages' visitors are summed, so
// ties at the page's edges must still fall as in the whole order and each row keep its own figures
for (const page of [
  { offset: 3, limit: 4 },
  { offset: 0, limit: 1 },
]) {
  describeAiReport({
    name: `ai/referrals, ${page.limit} row(s) from row ${page.offset}`,
    report: (ctx, range) => aiReferrals({ ...ctx, range, page }),
    naive: (events, range) => {
      const { assistants, pages } = naiveReferrals(events, range);
      const { rows, hasMore } = offsetPage(pages, page);
      return { assistants, pages: rows, hasMore };
    },
  });
}
