import type { Clock } from '../../clock.js';
import type { VisitorHasher } from '../ingest/visitor-hash.js';
import type { StoreOutcome } from './store/visitor-limit.js';
import { hashSubmitter, NOBODY, type Submitter, type SubmitterHashes } from './submitter.js';
import { FUTURE_SLACK_MS } from '../../calendar.js';
import type { BatchResult, Rejection } from '../ingest/batch-result.js';

/** What every kind of submission has: when it happened (default: now), the visitor's hash and its limit's keys. */
export interface Stamp extends SubmitterHashes {
  ts: number;
}

/**
 * Submissions checked one by one, at `now` (the clock's time: their receive time): the rows to store with the index
 * each came from, and the others rejected with why. A time too far ahead is reported first, then what `prepare`
 * finds wrong, then an address that is not one.
 */
export function prepareBatch<Item extends Submitter & { timestamp?: number }, Row>(params: {
  deps: { hasher: VisitorHasher; clock: Clock };
  projectId: string;
  items: Item[];
  prepare: (item: Item, stamp: Stamp) => { row: Row } | { error: string };
}): { now: number; rows: Row[]; indexes: number[]; rejected: Rejection[] } {
  const { projectId, deps } = params;
  const now = deps.clock().getTime();
  const rows: Row[] = [];
  const indexes: number[] = [];
  const rejected: Rejection[] = [];
  params.items.forEach((item, index) => {
    const ts = item.timestamp ?? now;
    const visitor = hashSubmitter({ hasher: deps.hasher, projectId, submitter: item, now });
    const hashes = 'error' in visitor ? NOBODY : visitor;
    const prepared: { row: Row } | { error: string } =
      ts > now + FUTURE_SLACK_MS ? { error: 'timestamp: is in the future' } : params.prepare(item, { ts, ...hashes });
    if ('error' in prepared) rejected.push({ index, error: prepared.error });
    else if ('error' in visitor) rejected.push({ index, error: visitor.error });
    else {
      rows.push(prepared.row);
      indexes.push(index);
    }
  });
  return { now, rows, indexes, rejected };
}

/** The batch's result: stored rows' outcomes (by `indexes`) counted, rate-limited ones rejected beside the invalid. */
export function tallyOutcomes(params: {
  outcomes: StoreOutcome[];
  indexes: number[];
  rejected: Rejection[];
}): BatchResult {
  const { outcomes, indexes } = params;
  const rejected = [...params.rejected];
  let accepted = 0;
  let duplicates = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome === 'rate limited')
      rejected.push({
        index: indexes[i],
        error: 'rate limited: too many submissions from this visitor in the last hour',
      });
    else {
      accepted++;
      if (outcome === 'duplicate') duplicates++;
    }
  });
  rejected.sort((a, b) => a.index - b.index);
  return { accepted, duplicates, rejected };
}
