import { DAY_MS } from '../../../src/calendar.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import { insertEvents } from '../../../src/analytics/store/write-events.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { countPageTraffic, pageTrafficFromDays } from '../../../src/analytics/reports/page-traffic.js';
import { describeAiReport, event, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { readsOf, recordingSql } from '../../support/recording-sql.js';
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
    const byId = await ctx.dictionaries.paths(ctx.sql, ctx.projectId, []);
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

describe.each(PROVIDERS)("a page's traffic over many days on %s", (provider) => {
  const ctx = useReportStore(provider);

  it('plans the range once, not once per day it walks', async () => {
    const first = Date.UTC(2026, 10, 1) / DAY_MS;
    const { sql, dictionaries, projectId } = ctx();
    // 30 whole days with data, the 20th not folded yet: read raw, the others from the day sets
    const daily = Array.from({ length: 30 }, (_, d) =>
      event({ ts: (first + d) * DAY_MS + 1000, kind: 1, visitorHash: 'a' }),
    );
    await insertEvents({ ...ctx(), events: daily });
    await foldEvents(sql);
    await insertEvents({ ...ctx(), events: [event({ ts: (first + 19) * DAY_MS + 5000, kind: 1, visitorHash: 'b' })] });
    const [pageId] = (await dictionaries.paths(sql, projectId, [])).keys();
    const { recording, statements } = recordingSql(sql);
    const cache = new DayCache(1 << 20);
    const traffic = await pageTrafficFromDays({
      sql: recording,
      cache,
      projectId,
      pageId,
      range: { from: first * DAY_MS, to: (first + 30) * DAY_MS },
    });
    expect(traffic.totals).toEqual({ human: 2, ai: 0 });
    // each derived day's sets read once; the plan (it starts with the fold's watermark) and the days' generations read
    // once for the whole range
    expect(readsOf(statements, 'AnalyticsDaySet')).toHaveLength(29);
    expect(readsOf(statements, 'AnalyticsState')).toHaveLength(1);
    expect(readsOf(statements, 'AnalyticsDay')).toHaveLength(1);
  });
});
