/** Longest comment kept, in characters (after trimming); longer ones are refused, not cut. */
export const MAX_COMMENT_LENGTH = 2000;
/** Longest search query kept, in characters (after normalising). */
export const MAX_QUERY_LENGTH = 200;

// C0/C1 controls other than tab and newline, and the bidi overrides that can make a comment display misleadingly
const UNWANTED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A comment as stored: NFC, line endings unified, unwanted control characters removed, trimmed. Empty is no
 * comment (null). It stays plain text: whoever shows it escapes it.
 */
export function normalizeComment(comment: string | null | undefined): string | null {
  if (comment === null || comment === undefined) return null;
  const text = comment.normalize('NFC').replace(/\r\n?/g, '\n').replace(UNWANTED, '').trim();
  return text || null;
}

/**
 * A search query as grouped: NFC, whitespace collapsed, trimmed, lower case (locale-independent), so "Rate  Limits"
 * and "rate limits" are one term. Undefined when nothing is left.
 */
export function normalizeSearchQuery(query: string): string | undefined {
  const text = query.normalize('NFC').replace(UNWANTED, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return text || undefined;
}
