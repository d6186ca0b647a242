/**
 * Characters a reader never sees but a model reads: zero-width and joiner characters, bidirectional controls
 * (which can make text read differently than it renders), the Unicode tag block and variation-selector
 * supplement (used to smuggle ASCII invisibly), soft hyphens and other format controls.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched on its own, combining marks included
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|\uDB40[\uDC00-\uDDEF]/g;
/** C0/C1 controls other than tab and newline. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

export const MAX_COMMENT_CHARS = 10_000;

/**
 * The text of a GitHub comment as a reader sees it, before it reaches the model: HTML comments (GitHub renders
 * nothing for them, so they can carry instructions nobody reviewed), Markdown "comment" link definitions
 * (`[//]: # (…)`), invisible and control characters are removed; line endings normalised; length capped.
 * Pure, so the rules are tested with plain strings.
 */
export function sanitizeComment(text: string): string {
  let out = text.replace(/\r\n?/g, '\n');
  // An unterminated `<!--` hides everything after it on GitHub, so it is cut to the end as well.
  out = out.replace(/<!--[\s\S]*?(-->|$)/g, '');
  out = out.replace(/^[ \t]*\[[^\]\n]*\]:[ \t]*#[ \t]*(\([^\n]*\)|"[^\n]*"|'[^\n]*')?[ \t]*$/gm, '');
  out = out.normalize('NFC').replace(INVISIBLE, '').replace(CONTROL, '');
  out = out
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out.length > MAX_COMMENT_CHARS ? `${out.slice(0, MAX_COMMENT_CHARS)}…` : out;
}
