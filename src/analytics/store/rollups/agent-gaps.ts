import type { Sql } from '../sql.js';
import { frozenBitmap, type Bitmap } from '../day-sets.js';
import type { RollupContext } from './rollup.js';
import { type DayMembers, type GapFamily, keepFamilyGaps } from '../keep-gap-counts.js';
import { cellFromKey, cellKey } from './agent-cell.js';
import { agentGapColumns } from './agent-columns.js';

/** A day's agent cells' visitor sets: cellKey → part → bitmap. */
async function loadCellSets(sql: Sql, projectId: string, day: number): Promise<DayMembers> {
  const rows = await sql.rows(
    'SELECT "kind", "agent", "verification", "part", "pairs" FROM "AnalyticsAgentDaySet" WHERE "projectId" = ? AND "day" = ?',
    [projectId, day],
  );
  const members: DayMembers = new Map();
  for (const [kind, agent, verification, part, pairs] of rows) {
    const key = cellKey({ kind: Number(kind), agent: agent as string, verification: Number(verification) });
    let parts = members.get(key);
    if (!parts) members.set(key, (parts = new Map()));
    parts.set(Number(part), frozenBitmap(pairs as Buffer));
  }
  return members;
}

const columnsOf = (members: Set<string>) => agentGapColumns([...members].map(cellFromKey));

/** The agent rollup's cells as a family of gap-count columns (for a recount). */
export const AGENT_CELL_GAPS: GapFamily = { table: 'AnalyticsAgentGapCounts', columnsOf, loadDay: loadCellSets };

/**
 * Keeps the agent cells' gap counts for a chunk merged into them in this transaction: `added` is project → day → part
 * → cellKey → what the chunk added. Cached under a key of their own: the reports cache a day's cells with their
 * views, these are the sets alone.
 */
export function keepAgentGaps(
  tx: Sql,
  added: Map<string, Map<number, Map<number, Map<string, Bitmap>>>>,
  context: RollupContext,
): Promise<void> {
  return keepFamilyGaps(tx, {
    family: AGENT_CELL_GAPS,
    cached: {
      name: 'agent-sets',
      load: async (sql, projectId, day) => {
        const members = await loadCellSets(sql, projectId, day);
        let bytes = 0;
        for (const parts of members.values())
          for (const bitmap of parts.values()) bytes += bitmap.getSerializationSizeInBytes(true);
        return { members, bytes };
      },
      members: (data) => data.members,
    },
    added,
    context,
  });
}
