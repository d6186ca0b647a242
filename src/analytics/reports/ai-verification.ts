import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import type { DayCache } from '../store/day-cache.js';
import { KIND } from '../store/day-sets.js';
import { VERIFICATION } from '../store/write-events.js';
import { totalViews, withAgentCells } from './agent-cells.js';
import type { AgentsReport } from './ai-agents.js';

/** AI views over a range by what verification said of them. */
export interface VerificationViews {
  /** signed with Web Bot Auth by a key of a directory trusted for the agent */
  signature: number;
  /** from inside the operator's fresh published address list */
  ipRange: number;
  /** confirmed by forward-confirmed reverse DNS */
  reverseDns: number;
  /** nothing could tell */
  unverifiable: number;
  /** an AI user agent outside its operator's list, or with a failing signature (stored as a bot) */
  spoofed: number;
}

/** The views of the range's agent cells by verification. */
export function aiVerification(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<VerificationViews> {
  // views alone, of the AI and spoofed cells: no bitmaps read, no union built
  return withAgentCells({ ...params, viewsOnly: true, aiOnly: true }, (cells) => {
    const of = (kind: number, verification?: number) =>
      totalViews(
        cells.filter(
          (d) => d.cell.kind === kind && (verification === undefined || d.cell.verification === verification),
        ),
      );
    return {
      signature: of(KIND.ai, VERIFICATION.signature),
      ipRange: of(KIND.ai, VERIFICATION.verified),
      reverseDns: of(KIND.ai, VERIFICATION.reverseDns),
      unverifiable: of(KIND.ai, VERIFICATION.unverifiable),
      spoofed: of(KIND.bot),
    };
  });
}

/** The same figures summed from the agents report (ClickHouse answers that one already). */
export function verificationOfAgents(report: AgentsReport): VerificationViews {
  const sum = (f: (a: AgentsReport['agents'][number]) => number) => report.agents.reduce((n, a) => n + f(a), 0);
  const signature = sum((a) => a.verifiedViews.signature);
  const ipRange = sum((a) => a.verifiedViews.ipRange);
  const reverseDns = sum((a) => a.verifiedViews.reverseDns);
  return {
    signature,
    ipRange,
    reverseDns,
    unverifiable: sum((a) => a.views) - signature - ipRange - reverseDns,
    spoofed: report.spoofed.reduce((n, s) => n + s.views, 0),
  };
}
