import { DAY_MS, type TimeRange } from '../../calendar.js';

/**
 * Whole UTC days inside a range ([first, end) day numbers, null when none), and the partial-day edges every report
 * reads from raw rows: the one rule by which reports split a range between derived rows and raw ones.
 */
export function splitRange({ from, to }: TimeRange): { days: [number, number] | null; edges: TimeRange[] } {
  const firstDay = Math.ceil(from / DAY_MS);
  const endDay = Math.floor(to / DAY_MS);
  if (firstDay >= endDay) return { days: null, edges: [{ from, to }] };
  const edges: TimeRange[] = [];
  if (from < firstDay * DAY_MS) edges.push({ from, to: firstDay * DAY_MS });
  if (to > endDay * DAY_MS) edges.push({ from: endDay * DAY_MS, to });
  return { days: [firstDay, endDay], edges };
}
