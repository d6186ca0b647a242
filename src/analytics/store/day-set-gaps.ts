import type { Sql } from './sql.js';
import { KIND, type Bitmap } from './day-sets.js';
import { segmentKey } from './day-cache.js';
import type { RollupContext } from './rollups/rollup.js';
import { dayGenerations, loadDaySets, type StoredDaySets } from './read-days.js';
import { GAP_DAYS } from './gap-counts.js';
import { type DayMembers, type GapColumn, type GapFamily, keepGapCounts } from './keep-gap-counts.js';

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

/**
 * Keeps the day sets' gap counts for a chunk merged into them in this transaction: `added` is project → day → part →
 * kind → what the chunk added. Days the chunk did not touch are read through `cache` when given (under their
 * generations, the keys the reports use), the touched ones from the transaction.
 */
export async function keepDaySetGaps(
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
      if (!cache || byDay.has(day) || generation === undefined)
        return membersOf(await loadDaySets(tx, { projectId, day }));
      const key = segmentKey(projectId, 'sets', 1, day);
      const version = String(generation);
      let sets = cache.get<StoredDaySets>(key, version);
      if (!sets) cache.set(key, version, (sets = await loadDaySets(tx, { projectId, day })));
      return membersOf(sets);
    };
    await keepGapCounts(tx, {
      projectId,
      columnsOf: () => DAY_SET_COLUMNS,
      added: byDay,
      loadDay,
      generations,
      windows,
      table: DAY_SET_GAPS.table,
    });
  }
}

/** The day sets as a family of gap-count columns (for a recount). */
export const DAY_SET_GAPS: GapFamily = {
  table: 'AnalyticsGapCounts',
  columnsOf: () => DAY_SET_COLUMNS,
  loadDay: async (tx, projectId, day) => membersOf(await loadDaySets(tx, { projectId, day })),
};
