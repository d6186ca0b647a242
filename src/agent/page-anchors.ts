import { fencedLines } from './fenced-lines.js';
import { HEADING_ID } from './parse-page.js';

export interface PageAnchors {
  /** Anchor keys (see anchorKey) the page is known to have. */
  keys: Set<string>;
  /**
   * False when the page may have anchors this reading cannot see (API pages generated from a spec,
   * imported snippets, computed headings, components that make their own ids): then no anchor link to
   * it is reported.
   */
  complete: boolean;
}

/**
 * The form anchors are compared in: lowercase letters and digits only. Platforms slug headings in
 * different ways (Mintlify keeps curly apostrophes and turns periods into hyphens, GitHub drops them,
 * Python-Markdown collapses hyphens), and Mintlify's own anchor check compares this loosely too; a
 * fragment that differs from a heading only in punctuation is not worth a repair round.
 */
export function anchorKey(text: string): string {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // keep it as written
  }
  return decoded.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Components whose anchors come from props in ways not worth imitating (`#param-id`, dated updates). */
const SELF_ANCHORING = /<(ParamField|ResponseField|Update|Snippet|Expandable)\b/;
/** Frontmatter that makes the page an API page, its sections generated from a spec. */
const GENERATED = /^(openapi|api|asyncapi|openapi-schema)\s*:/m;

/**
 * The readings of a heading's text an id may come from. Tags are dropped in one (`<Badge>` markup), kept
 * as text in another (`` `<Card>` `` in inline code), and inline components with their content dropped in a
 * third: which one the platform uses depends on the markup, and an extra reading only avoids false alarms.
 */
function headingTexts(raw: string): string[] {
  const text = raw.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+#+\s*$/, '');
  const readings = [text.replace(/<[^>]*>/g, ''), text];
  if (text.includes('<')) readings.push(text.replace(/<([A-Za-z][\w.]*)\b[^>]*>[^<]*<\/\1>/g, '').replace(/<[^>]*>/g, ''));
  // "1. Setup": Mintlify may read the number as a list marker and drop it.
  return readings.flatMap((reading) => (/^\d+\.\s/.test(reading) ? [reading, reading.replace(/^\d+\.\s+/, '')] : [reading]));
}

/** The anchors a page's headings, ids and titled components give it. Pure: the caller reads the page. */
export function pageAnchors(text: string): PageAnchors {
  const lines = text.split('\n');
  let start = 0;
  let complete = true;
  if (/^---\r?\n/.test(text)) {
    const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
    if (end > 0) {
      if (GENERATED.test(lines.slice(1, end).join('\n'))) complete = false;
      start = end + 1;
    }
  }
  const fenced = fencedLines(lines);
  const counts = new Map<string, number>();
  const add = (value: string) => {
    const key = anchorKey(value);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  // The readings of one heading count once each, so a heading is not taken for its own duplicate.
  const addAll = (values: string[]) => new Set(values.map(anchorKey)).forEach((key) => key && counts.set(key, (counts.get(key) ?? 0) + 1));
  for (let i = start; i < lines.length; i++) {
    if (fenced[i]) continue;
    const line = lines[i];
    // An imported Markdown snippet can bring headings of its own; a component import cannot add to the TOC.
    if (/^\s*import\s.*\.mdx?["']/.test(line) || SELF_ANCHORING.test(line) || /\bid\s*=\s*\{/.test(line)) complete = false;
    const custom = HEADING_ID.exec(line);
    if (custom) add(custom[2]);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(custom ? custom[1] : line)?.[1] ?? /<h[1-6]\b[^>]*>(.*?)<\/h[1-6]>/i.exec(line)?.[1];
    if (heading !== undefined) {
      if (/[{}]/.test(heading)) complete = false;
      addAll(headingTexts(heading));
    }
    if (/^\s*(=+|-+)\s*$/.test(line) && i > start && lines[i - 1].trim() !== '' && !fenced[i - 1]) addAll(headingTexts(lines[i - 1]));
    for (const match of line.matchAll(/\b(?:id|name|title|label)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) add(match[1] ?? match[2]);
  }
  const keys = new Set<string>();
  for (const [key, count] of counts) {
    keys.add(key);
    // Repeated headings get numbered ids: "-1", "-2" (github-slugger) or "-2", "-3" (Mintlify).
    if (count > 1) for (let n = 1; n <= count; n++) keys.add(`${key}${n}`);
  }
  return { keys, complete };
}
