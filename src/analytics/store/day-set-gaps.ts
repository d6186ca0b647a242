import type { Sql } from './sql.js';
import { KIND, type Bitmap } from './day-sets.js';
import { loadDaySets, type StoredDaySets } from './read-days.js';
import type { RollupContext } from './rollups/rollup.js';
import { type DayMembers, type GapColumn, type GapFamily, keepFamilyGaps } from './keep-gap-counts.js';

/**
 * Gap counts of the day sets (see gap-counts.ts): the export's human, AI and total (either) columns, per page and for
 * the site (page 0), so its figures over up to 32 whole days are sums of per-day counts.
 */
export const DAY_SET_COLUMNS: GapColumn[] = [
  { name: 'human', members: [String(KIND.human)] },
  { name: 'ai', members: [String(KIND.ai)] },
  { name: 'total', members: [String(KIND.human), String(KIND.ai)] },
];

const membersOf = (sets: StoredDaySets): DayMembers =>
  new Map([...sets.sets].map(([kind, parts]) => [String(kind), parts]));

/** The day sets as a family of gap-count columns. */
export const DAY_SET_GAPS: GapFamily = {
  table: 'AnalyticsGapCounts',
  columnsOf: () => DAY_SET_COLUMNS,
  loadDay: async (tx, projectId, day) => membersOf(await loadDaySets(tx, { projectId, day })),
};

/**
 * Keeps the day sets' gap counts for a chunk merged into them in this transaction: `added` is project → day → part →
 * kind → what the chunk added. Untouched days are cached as the reports cache them (the same days, the same keys).
 */
export function keepDaySetGaps(
  tx: Sql,
  added: Map<string, Map<number, Map<number, Map<string, Bitmap>>>>,
  context: RollupContext,
): Promise<void> {
  return keepFamilyGaps(tx, {
    family: DAY_SET_GAPS,
    cached: { name: 'sets', load: (sql, projectId, day) => loadDaySets(sql, { projectId, day }), members: membersOf },
    added,
    context,
  });
}
