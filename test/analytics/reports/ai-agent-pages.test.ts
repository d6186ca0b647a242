import { agentPages } from '../../../src/analytics/reports/ai-agent-pages.js';
import { offsetPage } from '../../../src/analytics/reports/offset-page.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naiveAgentPages } from '../../support/naive-ai-reports.js';

const EVERY_ROW = { offset: 0, limit: 1_000_000 };

for (const by of ['agent', 'operator'] as const) {
  describeAiReport({
    name: `ai/agent-pages by ${by}`,
    report: (ctx, range) => agentPages({ ...ctx, range, by, page: EVERY_ROW }),
    naive: (events, range) => offsetPage(naiveAgentPages(events, range, by), EVERY_ROW),
  });

  // a page in the middle: only the rows that can be on it are sorted, so ties at its edges must still fall as in
  // the whole order
  for (const page of [
    { offset: 3, limit: 4 },
    { offset: 0, limit: 1 },
  ]) {
    describeAiReport({
      name: `ai/agent-pages by ${by}, ${page.limit} row(s) from row ${page.offset}`,
      report: (ctx, range) => agentPages({ ...ctx, range, by, page }),
      naive: (events, range) => offsetPage(naiveAgentPages(events, range, by), page),
    });
  }
}
