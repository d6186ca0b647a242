import { createHash } from 'node:crypto';
import type { ProblemKind } from './problem-kinds.js';

/**
 * A problem's id: a hash of its kind and subject (the requested URL, the page, the query, the page and source pull
 * request), so the same problem read again from the signals, on any replica, has the same id and finds its state.
 */
export function problemId(kind: ProblemKind, subject: string): string {
  return `pb_${createHash('sha256').update(`${kind}\0${subject}`).digest('hex').slice(0, 24)}`;
}
