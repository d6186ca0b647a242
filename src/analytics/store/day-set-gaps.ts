import { KIND } from './day-sets.js';
import { loadDaySets, type StoredDaySets } from './read-days.js';
import type { GapColumn, GapFamily } from './keep-gap-counts.js';

/**
 * Gap counts of the day sets (see gap-counts.ts): the export's human, AI and total (either) columns, per page and for
 * the site (page 0), so its figures over up to 32 whole days are sums of per-day counts.
 */
export const DAY_SET_COLUMNS: GapColumn[] = [
  { name: 'human', members: [String(KIND.human)] },
  { name: 'ai', members: [String(KIND.ai)] },
  { name: 'total', members: [String(KIND.human), String(KIND.ai)] },
];

/**
 * The day sets as a family of gap-count columns, members by kind. Days are cached as the reports cache them (the same
 * days, the same keys).
 */
export const DAY_SET_GAPS: GapFamily<StoredDaySets> = {
  table: 'AnalyticsGapCounts',
  columnsOf: () => DAY_SET_COLUMNS,
  cacheName: 'sets',
  loadDay: (tx, projectId, day) => loadDaySets(tx, { projectId, day }),
  members: (sets) => new Map([...sets.sets].map(([kind, parts]) => [String(kind), parts])),
};
