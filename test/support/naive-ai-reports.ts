import type { Sql } from '../../src/analytics/store/sql.js';
import type { TimeRange } from '../../src/calendar.js';
import { operatorOf, aiKindOf } from '../../src/analytics/ingest/classify-user-agent.js';
import type { PurposeCounts, PurposeSplit } from '../../src/analytics/reports/ai-purposes.js';
import { purposeOf } from '../../src/analytics/store/rollups/agent-columns.js';
import type { AgentPage } from '../../src/analytics/reports/ai-agent-pages.js';
import type { Referrals } from '../../src/analytics/reports/ai-referrals.js';
import type { AgentsReport } from '../../src/analytics/reports/ai-agents.js';
import { compareCodePoints } from '../../src/analytics/reports/compare-code-points.js';

/**
 * The AI traffic reports recounted the obvious way from every raw event of a project, with JavaScript sets: what
 * the rollups must answer for any range. Written for reading, not speed.
 */

export interface RawEvent {
  ts: number;
  path: string;
  visitorId: number | null;
  kind: number;
  agent: string | null;
  verification: number | null;
}

export async function readRawEvents(sql: Sql, projectId: string): Promise<RawEvent[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT e."ts" AS ts, p."path" AS path, e."visitorId" AS "visitorId", e."kind" AS kind, e."agent" AS agent,
            e."verification" AS verification
       FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId" WHERE e."projectId" = ?`,
    [projectId],
  );
  return rows.map((r) => ({
    ts: Number(r.ts),
    path: String(r.path),
    visitorId: r.visitorId === null ? null : Number(r.visitorId),
    kind: Number(r.kind),
    agent: (r.agent as string | null) ?? null,
    verification: r.verification === null ? null : Number(r.verification),
  }));
}

const HUMAN = 1;
const AI = 2;
const BOT = 0;
const isSpoofed = (e: RawEvent) => e.kind === BOT && e.agent !== null && e.agent.startsWith('unverified ');

/** Views and distinct visitor ids (ignoring null ids) of a list of events. */
function count(events: RawEvent[]): { views: number; visitors: number } {
  const ids = new Set(events.filter((e) => e.visitorId !== null).map((e) => e.visitorId));
  return { views: events.length, visitors: ids.size };
}

function groupBy<K>(events: RawEvent[], key: (e: RawEvent) => K): Map<K, RawEvent[]> {
  const groups = new Map<K, RawEvent[]>();
  for (const e of events) groups.set(key(e), [...(groups.get(key(e)) ?? []), e]);
  return groups;
}

const inRange = (events: RawEvent[], range: TimeRange) => events.filter((e) => e.ts >= range.from && e.ts < range.to);

function purposeCounts(events: RawEvent[], figure: 'views' | 'visitors'): PurposeCounts {
  const ai = events.filter((e) => e.kind === AI);
  const of = (list: RawEvent[]) => count(list)[figure];
  const purpose = (p: string) => ai.filter((e) => purposeOf(e.agent) === p);
  return {
    humanViews: of(events.filter((e) => e.kind === HUMAN)),
    aiViews: of(ai),
    searchIndexViews: of(purpose('searchIndex')),
    trainingViews: of(purpose('training')),
    assistantViews: of(purpose('assistant')),
    agentViews: of(purpose('agent')),
    otherAiViews: of(ai.filter((e) => ['assistant', 'agent', 'other'].includes(purposeOf(e.agent)))),
    totalViews: of(events.filter((e) => e.kind === HUMAN || e.kind === AI)),
    unverifiedAiViews: of(events.filter(isSpoofed)),
  };
}

export function naivePurposes(all: RawEvent[], range: TimeRange): PurposeSplit {
  const events = inRange(all, range).filter((e) => e.kind === HUMAN || e.kind === AI || isSpoofed(e));
  const both = (list: RawEvent[]) => ({
    views: purposeCounts(list, 'views'),
    visitors: purposeCounts(list, 'visitors'),
  });
  const pages = [...groupBy(events, (e) => e.path)].map(([path, list]) => ({ path, ...both(list) }));
  pages.sort((a, b) => b.views.totalViews - a.views.totalViews || compareCodePoints(a.path, b.path));
  return { totals: both(events), pages };
}

export function naiveAgentPages(all: RawEvent[], range: TimeRange, by: 'agent' | 'operator'): AgentPage[] {
  const ai = inRange(all, range).filter((e) => e.kind === AI);
  const name = (e: RawEvent) => (by === 'operator' ? operatorOf(e.agent ?? 'unknown') : (e.agent ?? 'unknown'));
  const rows = [...groupBy(ai, (e) => `${name(e)}\0${e.path}`)].map(([key, list]) => {
    const [agent, path] = key.split('\0');
    return { agent, path, ...count(list) };
  });
  return rows.sort(
    (a, b) => b.views - a.views || compareCodePoints(a.agent, b.agent) || compareCodePoints(a.path, b.path),
  );
}

export function naiveReferrals(all: RawEvent[], range: TimeRange): Referrals {
  const sent = inRange(all, range).filter((e) => e.kind === HUMAN && e.agent !== null);
  const assistant = (e: RawEvent) => e.agent!.replace(/^via /, '');
  const assistants = [...groupBy(sent, assistant)]
    .map(([name, list]) => ({ assistant: name, ...count(list) }))
    .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
  const pages = [...groupBy(sent, (e) => `${assistant(e)}\0${e.path}`)]
    .map(([key, list]) => {
      const [name, path] = key.split('\0');
      return { assistant: name, path, ...count(list) };
    })
    .sort(
      (a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant) || compareCodePoints(a.path, b.path),
    );
  return { assistants, pages };
}

/** A visitor id seen verified at least once for an agent in the range is verified; the others are unverifiable. */
export function naiveAgents(all: RawEvent[], range: TimeRange): AgentsReport {
  const events = inRange(all, range);
  const order = <T extends { agent: string; visitors: number; views: number }>(a: T, b: T) =>
    b.visitors - a.visitors || b.views - a.views || compareCodePoints(a.agent, b.agent);
  const agents = [
    ...groupBy(
      events.filter((e) => e.kind === AI),
      (e) => e.agent ?? 'unknown',
    ),
  ].map(([agent, list]) => {
    const { views, visitors } = count(list);
    // stored 1: by the operator's addresses, 3: by reverse DNS, 4: by a Web Bot Auth signature
    const verifiedVisitors = count(list.filter((e) => [1, 3, 4].includes(e.verification ?? 0))).visitors;
    const viewsBy = (v: number) => list.filter((e) => e.verification === v).length;
    return {
      agent,
      kind: aiKindOf(agent) ?? ('unknown' as const),
      visitors,
      verifiedVisitors,
      unverifiableVisitors: visitors - verifiedVisitors,
      views,
      verifiedViews: { signature: viewsBy(4), ipRange: viewsBy(1), reverseDns: viewsBy(3) },
    };
  });
  const spoofed = [...groupBy(events.filter(isSpoofed), (e) => e.agent!.slice('unverified '.length))].map(
    ([agent, list]) => ({ agent, ...count(list) }),
  );
  return { agents: agents.sort(order), spoofed: spoofed.sort(order) };
}
