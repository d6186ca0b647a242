/**
 * The rules an outcome is judged by, written once: docs/outcomes.md states them. A signal is read only where both
 * windows hold enough of it; a change smaller than the threshold is no effect, so noise never reads as a result.
 */
export const WINDOW_DAYS = [7, 14, 28] as const;
/** fewer human readers than this in either window: too little traffic to tell */
export const MIN_READERS = 30;
/** a traffic ratio at least this is better, at most its inverse is worse */
export const TRAFFIC_RATIO = 1.2;
/** fewer misses than this before the merge: nothing to compare */
export const MIN_MISSES = 10;
/** misses after at most this share of before are better, at least its inverse worse */
export const MISS_RATIO = 0.5;
/** fewer thumbs than this in either window: the helpful share is not read */
export const MIN_VOTES = 10;
/** a helpful share or a click-through moved by at least this much (0..1) */
export const SHARE_DELTA = 0.1;
/** fewer searches of a query than this in either window: its click-through is not read */
export const MIN_SEARCHES = 10;

export type SignalChange = 'improved' | 'worse' | 'no change' | 'too little data';
export type Verdict = 'helped' | 'no effect' | 'regressed' | 'too little traffic to tell' | 'pending';

export function trafficChange(before: number, after: number): SignalChange {
  if (before < MIN_READERS || after < MIN_READERS) return 'too little data';
  const ratio = after / before;
  return ratio >= TRAFFIC_RATIO ? 'improved' : ratio <= 1 / TRAFFIC_RATIO ? 'worse' : 'no change';
}

export function missChange(before: number, after: number): SignalChange {
  if (before < MIN_MISSES) return 'too little data';
  return after <= before * MISS_RATIO ? 'improved' : after * MISS_RATIO >= before ? 'worse' : 'no change';
}

export function helpfulChange(before: { up: number; down: number }, after: { up: number; down: number }): SignalChange {
  return shareChange(
    { part: before.up, all: before.up + before.down },
    { part: after.up, all: after.up + after.down },
    MIN_VOTES,
  );
}

/**
 * A share (part of all) read only with at least `least` on both sides, moved by at least SHARE_DELTA. Compared with
 * a little room: a move of exactly a tenth (4 of 10 against 5 of 10) is one, though 0.4 − 0.5 is not −0.1 in floating
 * point.
 */
function shareChange(
  before: { part: number; all: number },
  after: { part: number; all: number },
  least: number,
): SignalChange {
  if (before.all < least || after.all < least) return 'too little data';
  const delta = after.part / after.all - before.part / before.all;
  return delta >= SHARE_DELTA - 1e-9 ? 'improved' : delta <= -SHARE_DELTA + 1e-9 ? 'worse' : 'no change';
}

/** A search gap's own signal: its query's click-through into the changed pages, before and after. */
export function clickThroughChange(
  before: { searches: number; clicks: number },
  after: { searches: number; clicks: number },
): SignalChange {
  return shareChange(
    { part: before.clicks, all: before.searches },
    { part: after.clicks, all: after.searches },
    MIN_SEARCHES,
  );
}

/** Worse anywhere and better nowhere regressed; better somewhere and worse nowhere helped; anything else read is no effect. */
export function verdictOf(changes: readonly SignalChange[]): Exclude<Verdict, 'pending'> {
  const read = changes.filter((c) => c !== 'too little data');
  if (!read.length) return 'too little traffic to tell';
  const better = read.includes('improved');
  const worse = read.includes('worse');
  return better && !worse ? 'helped' : worse && !better ? 'regressed' : 'no effect';
}
