// with the u flag a surrogate pair is one code point, so only an unpaired half matches
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * Why a string cannot be stored as text exactly as given, on both databases; undefined when it can. PostgreSQL's
 * `text` refuses U+0000 (the whole statement fails, and with it its transaction). An unpaired UTF-16 surrogate has no
 * UTF-8 form: node-postgres writes it as U+FFFD, so two different values become one (a fresh idempotency key read as
 * a duplicate), while better-sqlite3 writes bytes that read back as three U+FFFD. Everything else round-trips.
 */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain an unpaired surrogate (not Unicode text)';
  return undefined;
}

/** Free text made storable the way Unicode says: each unpaired surrogate becomes U+FFFD (ES2024's toWellFormed). */
export function wellFormedText(text: string): string {
  return text.replace(new RegExp(UNPAIRED_SURROGATE.source, 'gu'), '\uFFFD');
}
