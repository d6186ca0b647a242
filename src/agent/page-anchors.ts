import { codeLines } from './code-lines.js';
import { jsxOpeningTags } from './jsx-opening-tags.js';
import { HEADING_ID } from './parse-page.js';

export interface PageAnchors {
  /** Anchor keys (see anchorKey) the page is known to have. */
  keys: Set<string>;
  /** How often each key's heading or id occurs: repeated ones also give numbered keys. */
  counts: ReadonlyMap<string, number>;
  /**
   * False when the page may have anchors this reading cannot see (API pages generated from a spec,
   * computed headings or ids, a snippet that cannot be read): then no anchor link to it is reported.
   * Anything short of that is read, so one unknown corner does not wave through every anchor.
   */
  complete: boolean;
}

/** A page's own anchors, and the Markdown snippets whose headings land on it too (for the caller to read). */
export interface OwnAnchors extends PageAnchors {
  /** Import specifiers as written (`/snippets/note.mdx`, `./part.md`); `<Snippet file="x.mdx">` as `/snippets/x.mdx`. */
  snippets: string[];
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
  return decoded
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Frontmatter that makes the page an API page, its sections generated from a spec. */
const GENERATED = /^(openapi|api|asyncapi|openapi-schema)\s*:/m;
/** An ESM import of a Markdown snippet, on its `import` line or the `} from` line closing a multi-line one. */
const SNIPPET_IMPORT = /^\s*(?:import\s|\}\s*from\s)[^'"]*["']([^"']+\.mdx?)["']/;
/** Attributes that become an id, given as an expression: the id cannot be known. */
const COMPUTED_ID = /\b(?:id|label|title)\s*=\s*\{/;
/** Mintlify gives these `#param-<name>`, named by one of these attributes. */
const PARAM_FIELDS = ['ParamField', 'Param', 'ResponseField'];
const PARAM_NAMES = ['query', 'path', 'body', 'header', 'name'];
const MDX_COMMENT = /\{\/\*.*?\*\/\}/g;
const withoutCode = (line: string) => line.replace(/(`+)(?:(?!\1).)*\1/g, '');

/** Keys for the counts: a repeated one also as numbered ids, "-1", "-2" (github-slugger, `param-x_1`) or "-2", "-3" (Mintlify). */
function expandKeys(counts: ReadonlyMap<string, number>): Set<string> {
  const keys = new Set<string>();
  for (const [key, count] of counts) {
    keys.add(key);
    if (count > 1) for (let n = 1; n <= count; n++) keys.add(`${key}${n}`);
  }
  return keys;
}

/** The anchors of a page together with those of the snippets it includes. */
export function combineAnchors(parts: readonly PageAnchors[]): PageAnchors {
  const counts = new Map<string, number>();
  for (const part of parts) for (const [key, n] of part.counts) counts.set(key, (counts.get(key) ?? 0) + n);
  return { keys: expandKeys(counts), counts, complete: parts.every((part) => part.complete) };
}

/** What is known of a page or snippet that cannot be read. */
export const UNKNOWN_ANCHORS: PageAnchors = { keys: new Set(), counts: new Map(), complete: false };

/**
 * The readings of a heading's text an id may come from. Tags are dropped in one (`<Badge>` markup), kept
 * as text in another (`` `<Card>` `` in inline code), and inline components with their content dropped in a
 * third: which one the platform uses depends on the markup, and an extra reading only avoids false alarms.
 */
function headingTexts(raw: string): string[] {
  const text = raw
    .replace(MDX_COMMENT, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+#+\s*$/, '');
  const readings = [text.replace(/<[^>]*>/g, ''), text];
  if (text.includes('<'))
    readings.push(text.replace(/<([A-Za-z][\w.]*)\b[^>]*>[^<]*<\/\1>/g, '').replace(/<[^>]*>/g, ''));
  // "1. Setup": Mintlify may read the number as a list marker and drop it.
  return readings.flatMap((reading) =>
    /^\d+\.\s/.test(reading) ? [reading, reading.replace(/^\d+\.\s+/, '')] : [reading],
  );
}

/** The `#param-…` anchors of parameter and response fields, and the snippets `<Snippet file>` includes. */
function componentAnchors(body: string): { names: string[]; snippets: string[]; complete: boolean } {
  const found = { names: [] as string[], snippets: [] as string[], complete: true };
  for (const { name, attributes } of jsxOpeningTags(body, [...PARAM_FIELDS, 'Snippet'])) {
    const values = (name === 'Snippet' ? ['file'] : PARAM_NAMES).map((attribute) => attributes?.get(attribute));
    const known = values.filter((value) => typeof value === 'string');
    // A tag that cannot be read, a name given as an expression, or a <Snippet> without a file.
    if (!attributes || values.includes(null) || (name === 'Snippet' && known.length === 0)) found.complete = false;
    else if (name === 'Snippet') found.snippets.push(`/snippets/${known[0].replace(/^\/+/, '')}`);
    else found.names.push(...known.map((value) => `param-${value}`));
  }
  return found;
}

/**
 * The anchors a page's headings, ids, titled components and parameter fields give it, and the snippets
 * it includes. Pure: the caller reads the page, and the snippets (see readPageAnchors).
 */
export function pageAnchors(text: string, format: 'md' | 'mdx'): OwnAnchors {
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
  const code = codeLines(text, format);
  const counts = new Map<string, number>();
  const snippets: string[] = [];
  const add = (value: string) => {
    const key = anchorKey(value);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  // The readings of one heading count once each, so a heading is not taken for its own duplicate.
  const addAll = (values: string[]) => {
    for (const key of new Set(values.map(anchorKey))) if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (let i = start; i < lines.length; i++) {
    if (code[i]) continue;
    const line = lines[i];
    // An imported Markdown snippet brings its headings; a component import cannot add to the TOC.
    const snippet = SNIPPET_IMPORT.exec(line)?.[1];
    if (snippet) snippets.push(snippet);
    if (COMPUTED_ID.test(withoutCode(line))) complete = false;
    const custom = HEADING_ID.exec(line);
    if (custom) add(custom[2]);
    const heading =
      /^\s*#{1,6}\s+(.*)$/.exec(custom ? custom[1] : line)?.[1] ?? /<h[1-6]\b[^>]*>(.*?)<\/h[1-6]>/i.exec(line)?.[1];
    if (heading !== undefined) {
      if (/[{}]/.test(withoutCode(heading).replace(MDX_COMMENT, ''))) complete = false;
      addAll(headingTexts(heading));
    }
    if (/^\s*(=+|-+)\s*$/.test(line) && i > start && lines[i - 1].trim() !== '' && !code[i - 1])
      addAll(headingTexts(lines[i - 1]));
    for (const match of line.matchAll(/\b(?:id|name|title|label)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
      add(match[1] ?? match[2]);
  }
  // Component tags may span lines; in code they are only examples.
  const components = componentAnchors(
    lines.map((line, i) => (i < start || code[i] ? '' : withoutCode(line))).join('\n'),
  );
  for (const name of components.names) add(name);
  snippets.push(...components.snippets);
  complete &&= components.complete;
  return { keys: expandKeys(counts), counts, complete, snippets };
}
