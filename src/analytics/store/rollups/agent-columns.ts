import { aiKindOf, operatorOf } from '../../ingest/classify-user-agent.js';
import { KIND } from '../day-sets.js';
import { isVerified } from '../write-events.js';
import type { GapColumn } from '../keep-gap-counts.js';
import { type AgentCell, cellKey, isPlainHuman } from './agent-cell.js';

/**
 * The agent rollup's gap-count columns (see gap-counts.ts): the unions of cells the AI reports count distinct visitors
 * of. A cell's own column (referrals, spoofed agents), an agent's (its verified and unverifiable cells: agent pages,
 * agents), an agent's verified cells (agents), an operator's (its agents: agent pages by operator) and a purpose's (its
 * agents: ai/purposes). Columns are named by what they unite, so a release whose agent list moves an agent to another
 * purpose or operator counts the new column from the cells, and the old one is left unread.
 */

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

export const cellColumn = (cell: AgentCell) => `cell:${cell.kind}:${cell.verification}:${cell.agent}`;
export const agentColumn = (name: string) => `agent:${name}`;
export const operatorColumn = (operator: string) => `operator:${operator}`;
/** an agent's verified cells (named alike: an unnamed agent is "unknown") */
export const verifiedColumn = (name: string) => `verified:${name}`;
/** human and ai come from the day sets' columns, not from here */
export const purposeColumn = (group: PurposeGroup) => `purpose:${group}`;

/** The columns a cell's visitors count in. */
export function columnsOfCell(cell: AgentCell): string[] {
  if (isPlainHuman(cell)) return [];
  const columns = [cellColumn(cell)];
  if (cell.kind === KIND.ai) {
    columns.push(agentColumn(agentName(cell)), operatorColumn(operatorOf(agentName(cell))));
    if (isVerified(cell.verification)) columns.push(verifiedColumn(agentName(cell)));
  }
  for (const group of purposeGroupsOf(cell.kind, cell.agent))
    if (group !== 'human' && group !== 'ai') columns.push(purposeColumn(group));
  return columns;
}

/** Every column of the given cells (by cellKey), with its members among them. */
export function agentGapColumns(cells: Iterable<AgentCell>): GapColumn[] {
  const members = new Map<string, string[]>();
  for (const cell of cells) {
    for (const column of columnsOfCell(cell)) {
      const list = members.get(column);
      if (list) list.push(cellKey(cell));
      else members.set(column, [cellKey(cell)]);
    }
  }
  return [...members].map(([name, keys]) => ({ name, members: keys }));
}
