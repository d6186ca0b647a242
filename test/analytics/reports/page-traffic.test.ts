import { DAY_MS, type TimeRange } from '../../../src/calendar.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import type { AnalyticsStore } from '../../../src/analytics/store/event-store.js';
import { splitRange } from '../../../src/analytics/store/split-range.js';
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

describe("a page's traffic over many days", () => {
  it('plans the range once, not once per day it walks', async () => {
    const first = Date.UTC(2026, 10, 1) / DAY_MS;
    const asked = { plans: 0, generations: 0, days: 0 };
    // 30 whole days with data, the 20th not folded yet: read raw, the others from the day sets
    const store = {
      planRange: async (_projectId: string, range: TimeRange) => {
        asked.plans++;
        const late = { from: (first + 19) * DAY_MS, to: (first + 20) * DAY_MS };
        const days = splitRange(range).days!;
        return {
          days: [[days[0], first + 19] as [number, number], [first + 20, days[1]] as [number, number]],
          raw: [late],
        };
      },
      dayGenerations: async (_projectId: string, from: number, to: number) => {
        asked.generations++;
        return new Map(Array.from({ length: to - from }, (_, i) => [from + i, 1]));
      },
      loadDayPageSets: async () => {
        asked.days++;
        return { sets: new Map(), bytes: 0, owned: [] };
      },
      agentDays: async () => new Map(),
      pageEvents: async () => [],
    } as unknown as AnalyticsStore;
    const cache = new DayCache(1 << 20).lease();
    const traffic = await pageTrafficFromDays({
      store,
      cache,
      projectId: 'p',
      pageId: 7,
      range: { from: first * DAY_MS, to: (first + 30) * DAY_MS },
    });
    cache.release();
    expect(traffic.totals).toEqual({ human: 0, ai: 0 });
    // each derived day loaded once; the plan and the days' generations read once for the whole range
    expect(asked.days).toBe(29);
    expect(asked.plans).toBe(1);
    expect(asked.generations).toBe(1);
  });
});
