import { aiKindOf } from '../../ingest/classify-user-agent.js';
import { KIND } from '../day-sets.js';
import type { AgentCell } from './agent-cell.js';

/** The columns of the AI reports: an agent cell's purpose and the reports' name for its agent. */

/** What an AI agent reads for, by its kind in the agent list (src/analytics/ingest/ai-user-agents/ai-agents.json). */
export type Purpose = 'searchIndex' | 'training' | 'assistant' | 'agent' | 'other';
const PURPOSE_OF_KIND = { search: 'searchIndex', crawler: 'training', assistant: 'assistant', agent: 'agent' } as const;

export function purposeOf(agent: string | null): Purpose {
  const kind = agent === null ? undefined : aiKindOf(agent);
  return kind ? PURPOSE_OF_KIND[kind] : 'other';
}

/** The columns of ai/purposes: the export's two and each purpose's, with other AI and spoofed agents. */
export type PurposeGroup =
  | 'human'
  | 'ai'
  | 'searchIndex'
  | 'training'
  | 'assistant'
  | 'agent'
  | 'otherAi'
  | 'unverifiedAi';

/** The purpose columns an agent cell counts in (views add up across them; visitors are unions per column). */
export function purposeGroupsOf(kind: number, agent: string): PurposeGroup[] {
  if (kind === KIND.bot) return ['unverifiedAi'];
  if (kind === KIND.human) return ['human'];
  const purpose = purposeOf(agent || null);
  if (purpose === 'searchIndex' || purpose === 'training') return ['ai', purpose];
  return purpose === 'other' ? ['ai', 'otherAi'] : ['ai', purpose, 'otherAi'];
}

/** An AI cell's agent as the reports name it. */
export const agentName = (cell: AgentCell) => cell.agent || 'unknown';
