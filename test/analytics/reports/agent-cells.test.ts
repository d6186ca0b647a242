import { agentPages } from '../../../src/analytics/reports/ai-agent-pages.js';
import { aiAgents } from '../../../src/analytics/reports/ai-agents.js';
import { aiReferrals } from '../../../src/analytics/reports/ai-referrals.js';
import { DayCache } from '../../../src/analytics/store/day-cache.js';
import type { AnalyticsStore } from '../../../src/analytics/store/event-store.js';
import type { TimeRange } from '../../../src/calendar.js';
import { event, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';

const at = (day: number, hour: number) => Date.UTC(2026, 10, day, hour);

/** Each AI report over a range, from a store given to it. */
const REPORTS: [string, (store: AnalyticsStore, range: TimeRange) => Promise<unknown>][] = [
  ['agents', (store, range) => aiAgents({ store, cache: new DayCache(1 << 24), projectId: 'p-cells', range })],
  [
    'agent pages',
    (store, range) =>
      agentPages({
        store,
        cache: new DayCache(1 << 24),
        projectId: 'p-cells',
        range,
        by: 'agent',
        page: { limit: 50, offset: 0 },
      }),
  ],
  ['referrals', (store, range) => aiReferrals({ store, cache: new DayCache(1 << 24), projectId: 'p-cells', range })],
];

describe.each(PROVIDERS)('the AI reports read the agent cells on %s', (provider) => {
  const ctx = useReportStore(provider);

  beforeAll(async () => {
    const { store } = ctx();
    await store.insertEvents('p-cells', [
      event({ kind: 2, ts: at(22, 9), visitorHash: 'v-1', agent: 'GPTBot', verification: 1 }),
      event({ kind: 2, ts: at(23, 9), visitorHash: 'v-1', agent: 'GPTBot', verification: 1, path: '/b' }),
      event({ kind: 2, ts: at(23, 10), visitorHash: 'v-2', agent: 'ClaudeBot', verification: 2 }),
      event({ kind: 1, ts: at(23, 11), visitorHash: 'v-3', agent: 'via ChatGPT' }),
      event({ kind: 1, ts: at(24, 11), visitorHash: 'v-3', agent: 'via ChatGPT', path: '/b' }),
    ]);
    await store.fold();
  });

  it.each(REPORTS)(
    '%s: no bitmaps when the gap counts answer (whole days), the same answer from the bitmaps when they cannot',
    async (_name, report) => {
      const { store } = ctx();
      const bitmapReads: string[] = [];
      const spied = Object.create(store) as AnalyticsStore;
      spied.agentDays = (id, from, to, options = {}) => {
        if (!options.viewsOnly) bitmapReads.push(`days ${from}`);
        return store.agentDays(id, from, to, options);
      };
      spied.segment = (id, name, version) => {
        if (name.startsWith('agents:')) bitmapReads.push(name);
        return store.segment(id, name, version);
      };
      const range = { from: at(1, 0), to: at(30, 0) };
      const fromGaps = await report(spied, range);
      expect(bitmapReads).toEqual([]);
      // an answer with the stored traffic in it
      expect(JSON.stringify(fromGaps)).toMatch(/GPTBot|ChatGPT/);
      spied.gapCountsReady = async () => false;
      expect(await report(spied, range)).toEqual(fromGaps);
      expect(bitmapReads.length).toBeGreaterThan(0);
      // a range with partial days reads the bitmaps (the edges' pairs are checked against the whole days')
      bitmapReads.length = 0;
      delete (spied as Partial<AnalyticsStore>).gapCountsReady;
      await report(spied, { from: at(1, 5), to: at(30, 0) });
      expect(bitmapReads.length).toBeGreaterThan(0);
    },
  );
});
