import { KIND } from '../day-sets.js';
import { isVerified, UNVERIFIED_PREFIX, VERIFICATION } from '../write-events.js';

/** The agent rollup's cells (see agent-days.ts): what a view counts in, and the cell's key. */

export interface AgentCell {
  /** KIND.ai an AI agent, KIND.human humans (agent "via <assistant>" when one sent them), KIND.bot a spoofed AI agent */
  kind: number;
  /** "" for an unnamed AI agent, and for humans no assistant sent */
  agent: string;
  /** AI: how it was verified (VERIFICATION), or .unverifiable (so is a stored null); 0 for the other kinds */
  verification: number;
}

/** The cell an event counts in, or undefined for another bot's view. */
export function cellOf(e: { kind: number; agent: string | null; verification: number | null }): AgentCell | undefined {
  if (e.kind === KIND.ai) {
    const verification = isVerified(e.verification) ? e.verification! : VERIFICATION.unverifiable;
    return { kind: KIND.ai, agent: e.agent ?? '', verification };
  }
  if (e.kind === KIND.human) return { kind: KIND.human, agent: e.agent ?? '', verification: 0 };
  if (e.kind === KIND.bot && e.agent?.startsWith(UNVERIFIED_PREFIX)) {
    return { kind: KIND.bot, agent: e.agent, verification: 0 };
  }
  return undefined;
}

/**
 * Humans no assistant sent: views only (their visitors are in the day sets), so the purposes report reads every
 * view it shows from the rollup.
 */
export const isPlainHuman = (c: AgentCell) => c.kind === KIND.human && c.agent === '';

export const cellKey = (c: AgentCell) => `${c.kind}\0${c.verification}\0${c.agent}`;
