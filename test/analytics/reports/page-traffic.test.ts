import { DAY_MS } from '../../../src/calendar.js';
import { countPageTraffic, pageTrafficFromDays } from '../../../src/analytics/reports/page-traffic.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import type { RawEvent } from '../../support/naive-ai-reports.js';

const PAGES = ['/p3', '/p7', '/never'];

/** A page's traffic straight from its raw events: distinct visitors per (day, kind), per kind and per (kind, agent). */
function naiveTraffic(events: RawEvent[]) {
  const distinct = (list: RawEvent[]) => new Set(list.map((e) => e.visitorId)).size;
  const groups = <K>(list: RawEvent[], key: (e: RawEvent) => K) => {
    const out = new Map<string, { key: K; events: RawEvent[] }>();
    for (const e of list) {
      const k = key(e);
      const name = JSON.stringify(k);
      out.set(name, { key: k, events: [...(out.get(name)?.events ?? []), e] });
    }
    return [...out.values()];
  };
  return countPageTraffic({
    days: groups(events, (e) => [Math.floor(e.ts / DAY_MS), e.kind] as const).map(
      ({ key: [day, kind], events: on }) => [day, kind, distinct(on)] as [number, number, number],
    ),
    totals: groups(events, (e) => e.kind).map(({ key, events: on }) => [key, distinct(on)] as [number, number]),
    agents: groups(
      events.filter((e) => e.agent !== null),
      (e) => [e.kind, e.agent!] as const,
    ).map(
      ({ key: [kind, agent], events: on }) =>
        [kind, agent, on.length, distinct(on)] as [number, string, number, number],
    ),
  });
}

describeAiReport({
  name: "a page's traffic from the day sets and edges",
  report: async (ctx, range) => {
    const byId = await ctx.store.paths(ctx.projectId, []);
    const ids = new Map([...byId].map(([id, path]) => [path, id]));
    const out: Record<string, unknown> = {};
    for (const path of PAGES) out[path] = await pageTrafficFromDays({ ...ctx, range, pageId: ids.get(path) });
    return out;
  },
  naive: (events, range) => {
    const counted = events.filter((e) => e.ts >= range.from && e.ts < range.to && (e.kind === 1 || e.kind === 2));
    return Object.fromEntries(PAGES.map((path) => [path, naiveTraffic(counted.filter((e) => e.path === path))]));
  },
});
