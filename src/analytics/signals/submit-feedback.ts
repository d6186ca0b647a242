import type { Clock } from '../../clock.js';
import { pagePath } from '../ingest/page-path.js';
import type { Sql } from '../store/sql.js';
import type { VisitorHasher } from '../ingest/visitor-hash.js';
import type { FeedbackSource } from './feedback-kinds.js';
import type { FeedbackStoredListener } from './feedback-stored.js';
import { characterCount, MAX_COMMENT_LENGTH, normalizeComment, tooLong } from './normalize.js';
import { insertFeedback, type NewFeedback } from './store/insert-feedback.js';
import { prepareBatch, tallyOutcomes } from './submit-batch.js';
import { unstorableField } from './unstorable-field.js';
import type { BatchResult } from '../ingest/batch-result.js';
import type { Submitter } from './submitter.js';
import { HOUR_MS } from '../../calendar.js';

/** feedback submissions (votes and comments) one address, or one given visitor id, may make per project and hour */
export const FEEDBACK_PER_VISITOR_HOUR = 20;

export interface FeedbackSubmission extends Submitter {
  timestamp?: number;
  /** a path or full URL */
  path: string;
  source?: FeedbackSource;
  helpful?: boolean | null;
  comment?: string | null;
  contact?: string | null;
  code?: string;
  filename?: string | null;
  lang?: string | null;
  /** idempotency key, already namespaced by the caller */
  key?: string;
  /** a browser widget's submission id: scoped to the visitor and page, a later one there with it updates the first */
  submission?: string;
}

/**
 * Checks, hashes and stores feedback, and tells the listener what was stored. `update`: a key seen before updates
 * its row (the widget's comment after its vote) instead of being a duplicate.
 */
export async function submitFeedback(
  deps: { sql: Sql; hasher: VisitorHasher; clock: Clock; onStored?: FeedbackStoredListener },
  params: { projectId: string; items: FeedbackSubmission[]; onKey: 'skip' | 'update' },
): Promise<BatchResult> {
  const { projectId, onKey } = params;
  const { now, rows, indexes, rejected } = prepareBatch({
    deps,
    projectId,
    items: params.items,
    prepare: (item, { ts, visitorHash, limitKeys }): { row: NewFeedback } | { error: string } => {
      const path = pagePath(item.path);
      const comment = normalizeComment(item.comment);
      if (path === undefined) return { error: 'path: is not a page path or URL' };
      // the key is the caller's `id`, namespaced
      const { key, submission, contact, code, filename, lang } = item;
      const unstorable = unstorableField({ id: key, submission, contact, code, filename, lang });
      if (unstorable !== undefined) return { error: unstorable };
      if (comment !== null && characterCount(comment) > MAX_COMMENT_LENGTH)
        return { error: `comment: ${tooLong(MAX_COMMENT_LENGTH)}` };
      const source = item.source ?? (comment === null ? 'thumbs_only' : 'contextual');
      // a comment carries feedback on its own; a thumbs vote is nothing without its vote
      if (source === 'thumbs_only' && (item.helpful === undefined || item.helpful === null))
        return { error: 'helpful: is required for a thumbs vote (feedback without a comment)' };
      // the submission id has no ':', so the key reads back unambiguously
      const widgetKey =
        item.submission !== undefined && visitorHash !== null
          ? `widget:${visitorHash}:${item.submission}:${path}`
          : null;
      return {
        row: {
          ts,
          path,
          source,
          helpful: item.helpful ?? null,
          comment,
          contact: item.contact?.trim() || null,
          code: source === 'code_snippet' ? (item.code ?? '') : null,
          filename: item.filename ?? null,
          lang: item.lang ?? null,
          visitorHash,
          limitKeys,
          // scoped by visitor hash, so nobody else's submission can be overwritten by guessing its id, and by page,
          // so an id reused on another page (a script that keeps it across pages) gets that page its own row
          key: item.key ?? widgetKey,
        },
      };
    },
  });
  const limit = { since: now - HOUR_MS, max: FEEDBACK_PER_VISITOR_HOUR };
  const results = await insertFeedback(deps.sql, { projectId, now, rows, limit, onKey });
  const stored = results.flatMap((r, i) =>
    (r.outcome === 'stored' || r.outcome === 'updated') && r.id !== null
      ? [{ id: r.id, path: rows[i].path, outcome: r.outcome, newComment: r.newComment }]
      : [],
  );
  if (stored.length && deps.onStored) await deps.onStored({ projectId, rows: stored });
  return tallyOutcomes({ outcomes: results.map((r) => r.outcome), indexes, rejected });
}
