import type { Sql } from '../sql.js';
import { frozenBitmap, type Bitmap } from '../day-sets.js';
import { segmentKey } from '../day-cache.js';
import type { RollupContext } from './rollup.js';
import { dayGenerations } from '../read-days.js';
import { GAP_DAYS } from '../gap-counts.js';
import { type DayMembers, type GapFamily, keepGapCounts } from '../keep-gap-counts.js';
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

/** Cached under a key of its own: the reports cache a day's cells with their views, these are the sets alone. */
const CACHE_FAMILY = 'agent-sets';

/**
 * Keeps the agent cells' gap counts for a chunk merged into them in this transaction: `added` is project → day → part
 * → cellKey → what the chunk added. Untouched days are read through `cache` when given, under their generations.
 */
export async function keepAgentGaps(
  tx: Sql,
  added: Map<string, Map<number, Map<number, Map<string, Bitmap>>>>,
  context: RollupContext,
): Promise<void> {
  const { cache, windows } = context;
  for (const [projectId, byDay] of added) {
    const days = [...byDay.keys()];
    const generations = await dayGenerations(tx, {
      projectId,
      fromDay: Math.min(...days) - GAP_DAYS,
      toDay: Math.max(...days) + GAP_DAYS + 1,
    });
    const loadDay = async (day: number) => {
      const generation = generations.get(day);
      // a touched day's rows changed in this transaction: never cached (it may still roll back)
      if (!cache || byDay.has(day) || generation === undefined) return loadCellSets(tx, projectId, day);
      const key = segmentKey(projectId, CACHE_FAMILY, 1, day);
      const version = String(generation);
      const cached = cache.get<{ members: DayMembers; bytes: number }>(key, version);
      if (cached) return cached.members;
      const members = await loadCellSets(tx, projectId, day);
      let bytes = 0;
      for (const parts of members.values())
        for (const bitmap of parts.values()) bytes += bitmap.getSerializationSizeInBytes(true);
      const entry = { members, bytes };
      cache.set(key, version, entry);
      return members;
    };
    await keepGapCounts(tx, {
      projectId,
      columnsOf,
      added: byDay,
      loadDay,
      generations,
      windows,
      table: AGENT_CELL_GAPS.table,
    });
  }
}
