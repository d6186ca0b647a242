import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';

/** Who asked for a missing URL and got 404/410 in a range (see store/page-misses.ts). */
export interface MissingPage {
  /** as requested, query dropped */
  path: string;
  requests: number;
  /** distinct visitors, exact: humans and AI agents (an agent is one visitor per address) */
  readers: number;
  humanReaders: number;
  aiReaders: number;
  statuses: { status: number; requests: number }[];
  /** most requests first; `human` for the humans */
  agents: { agent: string; requests: number; verified: number }[];
  aiRequests: number;
  verifiedRequests: number;
  /** epoch ms */
  firstSeen: number;
  lastSeen: number;
}

/** The URLs requested and not found in the range (or those of `paths`), most readers first, then path. */
export async function readMissingPages(
  sql: Sql,
  params: { projectId: string; range: TimeRange; paths?: readonly string[] },
): Promise<MissingPage[]> {
  if (params.paths && !params.paths.length) return [];
  const only = params.paths ? ` AND "path" IN (${params.paths.map(() => '?').join(', ')})` : '';
  const where = `WHERE "projectId" = ?${only} AND "ts" >= ? AND "ts" < ?`;
  const args = [params.projectId, ...(params.paths ?? []), params.range.from, params.range.to];
  const pages = new Map<string, MissingPage>();
  const cells = await sql.rows(
    `SELECT "path", "class", "agent", "status", "verified", COUNT(*), MIN("ts"), MAX("ts") FROM "AnalyticsPageMiss" ${where}
      GROUP BY "path", "class", "agent", "status", "verified"`,
    args,
  );
  for (const [path, cls, agent, status, verified, n, first, last] of cells) {
    const requests = Number(n);
    const page = pageOf(pages, path as string);
    page.requests += requests;
    page.firstSeen = Math.min(page.firstSeen, Number(first));
    page.lastSeen = Math.max(page.lastSeen, Number(last));
    addTo(page.statuses, (s) => s.status === Number(status), { status: Number(status), requests: 0 }).requests +=
      requests;
    const who = addTo(page.agents, (a) => a.agent === (agent ?? 'human'), {
      agent: (agent as string | null) ?? 'human',
      requests: 0,
      verified: 0,
    });
    who.requests += requests;
    if (cls === 'ai') {
      page.aiRequests += requests;
      if (Number(verified) === 1) {
        who.verified += requests;
        page.verifiedRequests += requests;
      }
    }
  }
  // distinct readers per URL: in all, AI agents and humans, in one pass
  for (const [path, all, ai, human] of await sql.rows(
    `SELECT "path", COUNT(DISTINCT "visitorHash"), COUNT(DISTINCT CASE WHEN "class" = 'ai' THEN "visitorHash" END),
            COUNT(DISTINCT CASE WHEN "class" = 'ai' THEN NULL ELSE "visitorHash" END)
       FROM "AnalyticsPageMiss" ${where} GROUP BY "path"`,
    args,
  )) {
    const page = pages.get(path as string)!;
    page.readers = Number(all);
    page.aiReaders = Number(ai);
    page.humanReaders = Number(human);
  }
  for (const page of pages.values()) {
    page.agents.sort((a, b) => b.requests - a.requests || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
    page.statuses.sort((a, b) => a.status - b.status);
  }
  return [...pages.values()].sort(mostReadersFirst);
}

/** A missing URL's requests and distinct readers in the range, and when it was first and last asked for. */
export interface MissingUrl {
  path: string;
  requests: number;
  readers: number;
  /** epoch ms */
  firstSeen: number;
  lastSeen: number;
}

/** The URLs requested and not found in the range with their requests and readers, in one pass, as readMissingPages orders them. */
export async function readMissingUrls(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<MissingUrl[]> {
  const rows = await sql.rows(
    `SELECT "path", COUNT(*), COUNT(DISTINCT "visitorHash"), MIN("ts"), MAX("ts") FROM "AnalyticsPageMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path"`,
    [params.projectId, params.range.from, params.range.to],
  );
  return rows
    .map(([path, requests, readers, first, last]) => ({
      path: path as string,
      requests: Number(requests),
      readers: Number(readers),
      firstSeen: Number(first),
      lastSeen: Number(last),
    }))
    .sort(mostReadersFirst);
}

/** The order missing URLs are listed in: most readers first, then path. */
function mostReadersFirst(a: { readers: number; path: string }, b: { readers: number; path: string }): number {
  return b.readers - a.readers || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

function pageOf(pages: Map<string, MissingPage>, path: string): MissingPage {
  let page = pages.get(path);
  if (!page) {
    page = {
      path,
      requests: 0,
      readers: 0,
      humanReaders: 0,
      aiReaders: 0,
      statuses: [],
      agents: [],
      aiRequests: 0,
      verifiedRequests: 0,
      firstSeen: Number.POSITIVE_INFINITY,
      lastSeen: Number.NEGATIVE_INFINITY,
    };
    pages.set(path, page);
  }
  return page;
}

function addTo<T>(list: T[], match: (item: T) => boolean, fresh: T): T {
  const found = list.find(match);
  if (found) return found;
  list.push(fresh);
  return fresh;
}
