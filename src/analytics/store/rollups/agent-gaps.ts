import type { Sql } from '../sql.js';
import { frozenBitmap } from '../day-sets.js';
import type { DayMembers, GapFamily } from '../keep-gap-counts.js';
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

/**
 * The agent rollup's cells as a family of gap-count columns, members by cellKey. Cached under a key of their own: the
 * reports cache a day's cells with their views, these are the sets alone.
 */
export const AGENT_CELL_GAPS: GapFamily<{ members: DayMembers; bytes: number }> = {
  table: 'AnalyticsAgentGapCounts',
  columnsOf: (members) => agentGapColumns([...members].map(cellFromKey)),
  cacheName: 'agent-sets',
  async loadDay(tx, projectId, day) {
    const members = await loadCellSets(tx, projectId, day);
    let bytes = 0;
    for (const parts of members.values())
      for (const bitmap of parts.values()) bytes += bitmap.getSerializationSizeInBytes(true);
    return { members, bytes };
  },
  members: (day) => day.members,
};
