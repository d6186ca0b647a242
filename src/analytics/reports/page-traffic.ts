import { DAY_MS } from '../../calendar.js';
import { addPageVisitors, KIND, RoaringBitmap32, type Bitmap } from '../store/day-sets.js';
import { purposeOf } from '../store/rollups/agent-columns.js';
import { VIA_PREFIX } from '../store/write-events.js';
import { pageEvents } from '../store/read-events.js';
import type { DayCache } from '../store/day-cache.js';
import { pageSetDays } from './range-sources.js';
import { plannedOnce, type Planning } from './range-days.js';
import { agentCellDays } from './agent-cells.js';

/** One page's visitors over a range, read from its stored page views. */
export interface PageTraffic {
  /** distinct visitors per UTC day (days since 1970) with any */
  days: Map<number, { human: number; ai: number }>;
  /** distinct over the whole range */
  totals: { human: number; ai: number };
  /** AI agents that read it, most visitors first */
  agents: { agent: string; purpose: string; views: number; visitors: number }[];
  /** AI assistants whose answers sent humans to it, most visitors first */
  referrals: { assistant: string; views: number; visitors: number }[];
}

/**
 * A page's traffic from its counted rows, whichever store counted them: distinct visitors per (day, kind) and per
 * kind, and views and visitors per (kind, agent); a human view's agent `via <assistant>` is a referral.
 */
export function countPageTraffic(rows: {
  days: [day: number, kind: number, visitors: number][];
  totals: [kind: number, visitors: number][];
  agents: [kind: number, agent: string, views: number, visitors: number][];
}): PageTraffic {
  const traffic: PageTraffic = { days: new Map(), totals: { human: 0, ai: 0 }, agents: [], referrals: [] };
  for (const [d, kind, n] of rows.days) {
    const cell = traffic.days.get(d) ?? { human: 0, ai: 0 };
    cell[kind === KIND.ai ? 'ai' : 'human'] = n;
    traffic.days.set(d, cell);
  }
  for (const [kind, n] of rows.totals) traffic.totals[kind === KIND.ai ? 'ai' : 'human'] = n;
  for (const [kind, agent, views, visitors] of rows.agents) {
    if (kind === KIND.ai) traffic.agents.push({ agent, purpose: purposeOf(agent), views, visitors });
    else if (agent.startsWith(VIA_PREFIX))
      traffic.referrals.push({ assistant: agent.slice(VIA_PREFIX.length), views, visitors });
  }
  const order =
    <T extends { visitors: number }>(key: (row: T) => string) =>
    (a: T, b: T) =>
      b.visitors - a.visitors || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  traffic.agents.sort(order((r) => r.agent));
  traffic.referrals.sort(order((r) => r.assistant));
  return traffic;
}

/**
 * One page's visitors per day and in all, its AI agents and the assistants that referred humans to it, exact, counted
 * as the visitors report counts a range (store/split-range.ts planRange):
 * each day the range touches from that day's sets when it is a derived whole day, from the raw events of that day's
 * part otherwise; the agents and assistants from the agent rollup's cells (edges from raw events). Only the page's own
 * containers are read, so the cost follows its visitors, not the site's.
 */
export async function pageTrafficFromDays(
  params: Planning & {
    cache: DayCache;
    /** the page's id; undefined when it has no stored views */
    pageId: number | undefined;
  },
): Promise<PageTraffic> {
  const { sql, projectId, pageId, range } = params;
  const rows: Parameters<typeof countPageTraffic>[0] = { days: [], totals: [], agents: [] };
  if (pageId === undefined) return countPageTraffic(rows);
  // walked day by day, planned once
  const planned = await plannedOnce(params);
  const kinds = [KIND.human, KIND.ai];
  const totals = kinds.map(() => new RoaringBitmap32());
  const built: Bitmap[] = [...totals];
  try {
    // per (kind, agent): views of the page and its distinct visitors across the agent's cells
    const agents = new Map<string, { kind: number; agent: string; views: number; visitors: Bitmap }>();
    const agentRow = (kind: number, agent: string | null) => {
      if (!agent || (kind !== KIND.ai && !(kind === KIND.human && agent.startsWith(VIA_PREFIX)))) return undefined;
      const key = `${kind}\0${agent}`;
      let row = agents.get(key);
      if (!row) {
        row = { kind, agent, views: 0, visitors: new RoaringBitmap32() };
        agents.set(key, row);
        built.push(row.visitors);
      }
      return row;
    };
    for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
      const part = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
      const sets = await pageSetDays({ ...planned, range: part, pageId });
      const day = kinds.map(() => new RoaringBitmap32());
      built.push(...day);
      kinds.forEach((kind, i) => {
        for (const stored of sets.days)
          for (const [p, blob] of stored.blobs.get(kind) ?? []) addPageVisitors(p, blob, pageId, day[i]);
      });
      for (const edge of sets.edges) {
        for (const e of await pageEvents(sql, { projectId, range: edge, pageIds: [pageId] })) {
          day[e.kind === KIND.ai ? 1 : 0].add(e.visitorId);
          const row = agentRow(e.kind, e.agent);
          if (row) {
            row.views++;
            row.visitors.add(e.visitorId);
          }
        }
      }
      // the day's agent rollup cells when it is derived whole (its edges were read above); day by day, as the sets:
      // one page of a range needs no multi-day union of every page's cells
      for (const stored of (await agentCellDays({ ...planned, range: part, pageId })).days) {
        for (const data of stored.cells.values()) {
          const views = data.views.get(pageId);
          if (!views) continue;
          const row = agentRow(data.cell.kind, data.cell.agent);
          if (!row) continue;
          row.views += views;
          for (const [p, blobs] of data.parts) for (const blob of blobs) addPageVisitors(p, blob, pageId, row.visitors);
        }
      }
      kinds.forEach((kind, i) => {
        if (day[i].size) rows.days.push([start / DAY_MS, kind, day[i].size]);
        totals[i].orInPlace(day[i]);
      });
    }
    kinds.forEach((kind, i) => {
      if (totals[i].size) rows.totals.push([kind, totals[i].size]);
    });
    for (const row of agents.values()) rows.agents.push([row.kind, row.agent, row.views, row.visitors.size]);
    return countPageTraffic(rows);
  } finally {
    for (const bitmap of built) bitmap.dispose();
  }
}
