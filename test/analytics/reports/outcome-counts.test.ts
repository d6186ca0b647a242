import { DAY_MS, type TimeRange } from '../../../src/calendar.js';
import {
  countGroupVisitors,
  countGroupVisitorsMany,
  type VisitorCounts,
} from '../../../src/analytics/reports/outcome-counts.js';
import { describeAiReport, event, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';

/** Groups of pages as outcomes ask for them: single pages, a pull request's pages together, a moved page, none seen. */
const GROUPS = [['/p1'], ['/p4'], ['/p1', '/p4', '/p9'], ['/p2', '/p3'], ['/p5', '/never'], ['/never']];

/** Distinct human, AI and assistant-sent visitor ids of the group's events, as COUNT(DISTINCT …) counts them. */
function naiveCounts(events: RawEvent[], group: string[]): VisitorCounts {
  const on = events.filter((e) => group.includes(e.path));
  const ids = (keep: (e: RawEvent) => boolean) => new Set(on.filter(keep).map((e) => e.visitorId)).size;
  return {
    human: ids((e) => e.kind === 1),
    ai: ids((e) => e.kind === 2),
    referred: ids((e) => e.kind === 1 && (e.agent ?? '').startsWith('via ')),
  };
}

describeAiReport({
  name: 'outcome visitors of groups of pages',
  report: async (ctx, range) => {
    const byId = await ctx.store.paths(ctx.projectId, []);
    const ids = new Map([...byId].map(([id, path]) => [path, id]));
    const groups = GROUPS.map((group) => group.flatMap((path) => ids.get(path) ?? []));
    return countGroupVisitors({ ...ctx, range, groups });
  },
  naive: (events, range) => {
    const counted = events.filter((e) => e.ts >= range.from && e.ts < range.to && (e.kind === 1 || e.kind === 2));
    return GROUPS.map((group) => naiveCounts(counted, group));
  },
});

/** An outcome's sides as they fall: before and after a live time, over windows of several lengths. */
const sidesOf = ({ from, to }: TimeRange): TimeRange[] => [
  { from, to },
  { from: from - DAY_MS - 12_345, to: from },
  { from: to, to: to + 2 * DAY_MS + 54_321 },
  { from: from - 3 * DAY_MS, to: from },
  { from: to, to: to + 3 * DAY_MS },
];

describeAiReport({
  name: 'outcome visitors of groups of pages over several ranges at once',
  report: async (ctx, range) => {
    const byId = await ctx.store.paths(ctx.projectId, []);
    const ids = new Map([...byId].map(([id, path]) => [path, id]));
    const groups = GROUPS.map((group) => group.flatMap((path) => ids.get(path) ?? []));
    return countGroupVisitorsMany({ ...ctx, ranges: sidesOf(range), groups });
  },
  naive: (events, range) =>
    sidesOf(range).map((side) => {
      const counted = events.filter((e) => e.ts >= side.from && e.ts < side.to && (e.kind === 1 || e.kind === 2));
      return GROUPS.map((group) => naiveCounts(counted, group));
    }),
});

describe.each(PROVIDERS)('outcome visitors at a range’s edges on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('counts a view landing in an edge day already read, folded or not yet, and only within the edge', async () => {
    const { store, projectId } = ctx();
    const at = (hour: number) => Date.UTC(2026, 10, 20, hour);
    const view = (visitorHash: string, ts: number) => event({ kind: 1, path: '/a', visitorHash, ts });
    await store.insertEvents(projectId, [view('h1', at(10))]);
    await store.fold();
    const [pageId] = [...(await store.paths(projectId, []))].find(([, path]) => path === '/a')!;
    // 08:00 on the 20th to noon on the 22nd: the 20th and the 22nd are partial
    const range = { from: at(8), to: at(2 * 24 + 12) };
    const humans = async () => (await countGroupVisitors({ ...ctx(), range, groups: [[pageId]] }))[0].human;
    expect(await humans()).toBe(1);
    expect(await humans()).toBe(1);
    await store.insertEvents(projectId, [view('h2', at(11))]);
    expect(await humans()).toBe(2); // not folded yet
    await store.fold();
    expect(await humans()).toBe(2);
    await store.insertEvents(projectId, [view('h3', at(7)), view('h4', at(2 * 24 + 13))]);
    expect(await humans()).toBe(2); // outside the range's part of those days
    await store.insertEvents(projectId, [view('h5', at(2 * 24 + 11))]);
    expect(await humans()).toBe(3);
  });
});
