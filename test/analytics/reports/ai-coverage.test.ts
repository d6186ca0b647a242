import type { TimeRange } from '../../../src/calendar.js';
import { aiCoverage } from '../../../src/analytics/reports/ai-coverage.js';
import { agentViewCounts } from '../../../src/analytics/reports/agent-view-counts.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';

/** Sections of the docs navigation: some pages the traffic reads, some it never does. */
const SECTIONS = [
  { group: 'Start', pages: ['/p0', '/p1', '/p2'] },
  { group: 'Guides', pages: ['/p3', '/p4', '/p5', '/p6'] },
  { group: 'Reference', pages: ['/p7', '/never-read'] },
  { group: 'Empty', pages: [] },
];

const rawViews = (events: RawEvent[], range: TimeRange) =>
  events
    .filter((e) => e.ts >= range.from && e.ts < range.to)
    .filter(
      (e) =>
        e.kind === 2 ||
        (e.kind === 0 && e.agent?.startsWith('unverified ')) ||
        (e.kind === 1 && e.agent?.startsWith('via ')),
    )
    .map((e) => ({ ts: e.ts, path: e.path, kind: e.kind, agent: e.agent ?? '', verification: e.verification }));

describeAiReport({
  name: 'ai/coverage',
  report: async (ctx, range) =>
    aiCoverage({ sections: SECTIONS, views: await agentViewCounts({ ...ctx, range, referred: true }) }),
  naive: (events, range) => aiCoverage({ sections: SECTIONS, views: rawViews(events, range) }),
});
