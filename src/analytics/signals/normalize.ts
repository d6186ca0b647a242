import { wellFormedText } from '../../db/storable-text.js';

/** Longest comment kept, in characters (code points, after normalising); longer ones are refused, not cut. */
export const MAX_COMMENT_LENGTH = 2000;
/** Longest search query kept, in characters (code points, after normalising). */
export const MAX_QUERY_LENGTH = 200;

/**
 * A text's length in characters as the README counts them: Unicode code points, so an emoji is one (`length`, in
 * UTF-16 units, says two). Counted without building an array: a request body may hold megabytes.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The refusal of a text over `max` characters, in the same words wherever it is counted. */
export function tooLong(max: number): string {
  return `may be at most ${max} characters`;
}

// C0/C1 controls other than tab and newline, and the bidi overrides that can make a comment display misleadingly
const UNWANTED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A comment as stored: unpaired surrogates replaced (U+FFFD), NFC, line endings unified, unwanted control characters
 * (NUL among them) removed, trimmed. Empty is no comment (null). It stays plain text: whoever shows it escapes it.
 */
export function normalizeComment(comment: string | null | undefined): string | null {
  if (comment === null || comment === undefined) return null;
  const text = wellFormedText(comment).normalize('NFC').replace(/\r\n?/g, '\n').replace(UNWANTED, '').trim();
  return text || null;
}

/**
 * A search query as grouped: unpaired surrogates replaced (U+FFFD), NFC, whitespace collapsed, trimmed, lower case
 * (locale-independent), so "Rate  Limits" and "rate limits" are one term. Undefined when nothing is left.
 */
export function normalizeSearchQuery(query: string): string | undefined {
  const text = wellFormedText(query).normalize('NFC').replace(UNWANTED, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return text || undefined;
}
