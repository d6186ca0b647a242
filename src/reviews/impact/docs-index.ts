import type { IdentifierKind } from './extract-identifiers.js';

/**
 * Where each token of a docs site appears, built once per review so that a thousand pages and a thousand
 * identifiers cost a map lookup each, not a scan. Pure. A mention is "in code" when it sits in a fenced block, an
 * inline code span, an HTML/JSX tag, or an OpenAPI/JSON/YAML file: plain words (`connect`, `port`) count only there,
 * so prose such as "connect to the server" never matches a removed `connect` method.
 */
export interface DocsPage {
  path: string;
  text: string;
}

export interface Mention {
  page: string;
  /** 1-based. */
  line: number;
  code: boolean;
}

export interface DocsIndex {
  tokens: Map<string, Mention[]>;
  /** Normalised routes (`/v1/users/{}`) and every suffix of two segments or more. */
  routes: Map<string, Mention[]>;
  lines: Map<string, string[]>;
  /** Every run of three words (lower case), so that a message is looked up, not searched for. */
  phrases: Map<string, Mention[]>;
  lowerLines: Map<string, string[]>;
}

const PHRASE_WORD = /[a-z0-9_']+/g;

/** `[A-Za-z_$][\w$]*` runs, scanned by hand: the hottest loop of a review, run over every word of the site. */
function forEachWord(text: string, visit: (word: string, at: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // A-Z, a-z, _ and $ start a word; digits continue one.
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36) {
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (!((d >= 65 && d <= 90) || (d >= 97 && d <= 122) || (d >= 48 && d <= 57) || d === 95 || d === 36)) break;
      }
      visit(text.slice(i, j), i);
      i = j;
    } else i++;
  }
}
const COMPOUND = /[A-Za-z_$@~][\w$@~]*(?:[.-]+[\w$]+)+/g;
const FLAG = /(?<![\w-])--[A-Za-z0-9][\w-]*/g;
const SLASHED = /(?<![\w:/])[~.]{0,2}\/?[\w.@{}:<>*$-]+(?:\/[\w.@{}:<>*$-]*)+/g;
const URL_PATH = /\bhttps?:\/\/[\w.:@-]+(\/[^\s)"'`>\]]*)/g;
const FENCE = /^\s*(```|~~~)/;
const DATA_FILE = /\.(json|ya?ml)$/i;

/** `/users/:id`, `/users/{userId}`, `/users/<int:id>` and `/users/{id}/` all read `/users/{}`. */
export function normalizeRoute(route: string): string {
  const path = route.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return (
    path
      .split('/')
      .map((segment) => (/^(?::\w+|\{[^}]*\}|<[^>]*>|\*)$/.test(segment) ? '{}' : segment))
      .join('/') || '/'
  );
}

/** Past this, a line is generated or minified; its spans are not worth a scan that may turn quadratic. */
const MAX_SPAN_LINE = 20_000;

function codeSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
  if (line.length > MAX_SPAN_LINE) return spans;
  for (const m of line.matchAll(/(`+)([^`]+?)\1|<[A-Za-z][^>]*>/g)) spans.push([m.index!, m.index! + m[0].length]);
  return spans;
}

function add(map: Map<string, Mention[]>, key: string, mention: Mention) {
  const list = map.get(key);
  if (!list) map.set(key, [mention]);
  else {
    const last = list[list.length - 1];
    // One mention per line and token is enough, and an upgrade to "in code" wins.
    if (last.page === mention.page && last.line === mention.line) last.code ||= mention.code;
    else list.push(mention);
  }
}

/** The keys a review will look up; an index built for them skips every other token (most of a site's text). */
export interface WantedKeys {
  tokens: Set<string>;
  routes: Set<string>;
  phrases: Set<string>;
}

/** The phrase a message is looked up by: three words, from the second on when it has more than three. */
function phraseOf(needle: string): string | undefined {
  const words = needle.toLowerCase().match(PHRASE_WORD) ?? [];
  if (words.length < 3) return undefined;
  // The first word may be the tail of a word cut by a placeholder.
  const from = Math.min(1, words.length - 3);
  return words.slice(from, from + 3).join(' ');
}

/** The index keys under which lookUp will search for each identifier. */
export function wantedKeys(identifiers: Iterable<{ identifier: string; kind: IdentifierKind }>): WantedKeys {
  const wanted: WantedKeys = { tokens: new Set(), routes: new Set(), phrases: new Set() };
  for (const { identifier, kind } of identifiers) {
    const phrase = kind === 'message' ? phraseOf(identifier) : undefined;
    if (phrase) wanted.phrases.add(phrase);
    else if (kind === 'http-route') wanted.routes.add(normalizeRoute(identifier));
    else wanted.tokens.add(kind === 'file-path' ? identifier.replace(/^\.\//, '') : identifier);
  }
  return wanted;
}

/** Which scans a set of wanted keys needs: most reviews look for no compound, no path, no phrase at all. */
function scansFor(wanted: WantedKeys | undefined) {
  const tokens = wanted ? [...wanted.tokens] : undefined;
  return {
    compounds: !tokens || tokens.some((t) => !t.startsWith('--') && !t.includes('/') && /[.-]/.test(t)),
    flags: !tokens || tokens.some((t) => t.startsWith('--')),
    paths: !tokens || !wanted || wanted.routes.size > 0 || tokens.some((t) => t.includes('/')),
    routes: !wanted || wanted.routes.size > 0,
    // A phrase is built only from a word that starts a wanted one.
    phraseStarts: wanted ? new Set([...wanted.phrases].map((p) => p.slice(0, p.indexOf(' ')))) : undefined,
  };
}

export function buildDocsIndex(pages: DocsPage[], wanted?: WantedKeys): DocsIndex {
  const index: DocsIndex = {
    tokens: new Map(),
    routes: new Map(),
    lines: new Map(),
    phrases: new Map(),
    lowerLines: new Map(),
  };
  const scans = scansFor(wanted);
  const scanPhrases = !scans.phraseStarts || scans.phraseStarts.size > 0;
  for (const page of pages) {
    const lines = page.text.split(/\r?\n/);
    index.lines.set(page.path, lines);
    const lowerLines = lines.map((line) => line.toLowerCase());
    index.lowerLines.set(page.path, lowerLines);
    const dataFile = DATA_FILE.test(page.path);
    let fenced = false;
    let text = '';
    let lineNumber = 0;
    let spans: [number, number][] | undefined;
    const mention = (at: number): Mention => {
      if (fenced || dataFile) return { page: page.path, line: lineNumber, code: true };
      spans ??= codeSpans(text);
      return { page: page.path, line: lineNumber, code: spans.some(([from, to]) => at >= from && at < to) };
    };
    const token = (key: string, at: number) => {
      if (!wanted || wanted.tokens.has(key)) add(index.tokens, key, mention(at));
    };
    const route = (path: string, at: number) => {
      const segments = normalizeRoute(path).split('/').slice(1);
      for (let from = 0; from < segments.length; from++) {
        const key = `/${segments.slice(from).join('/')}`;
        if ((from === 0 || segments.length - from >= 2) && (!wanted || wanted.routes.has(key)))
          add(index.routes, key, mention(at));
      }
    };
    for (let i = 0; i < lines.length; i++) {
      text = lines[i];
      lineNumber = i + 1;
      spans = undefined;
      if (FENCE.test(text)) {
        fenced = !fenced;
        continue;
      }
      if (scanPhrases) {
        const words = lowerLines[i].match(PHRASE_WORD) ?? [];
        for (let w = 0; w + 3 <= words.length; w++) {
          if (scans.phraseStarts && !scans.phraseStarts.has(words[w])) continue;
          const key = `${words[w]} ${words[w + 1]} ${words[w + 2]}`;
          if (!wanted || wanted.phrases.has(key))
            add(index.phrases, key, { page: page.path, line: lineNumber, code: false });
        }
      }
      forEachWord(text, token);
      if (scans.compounds && /[.-]/.test(text))
        for (const m of text.matchAll(COMPOUND)) token(m[0].replace(/[.-]+$/, ''), m.index!);
      if (scans.flags && text.includes('--')) for (const m of text.matchAll(FLAG)) token(m[0], m.index!);
      if (!scans.paths || !text.includes('/')) continue;
      for (const m of text.matchAll(SLASHED)) {
        const path = m[0].replace(/[.,:;]+$/, '');
        token(path.replace(/^\.\//, ''), m.index!);
        if (scans.routes && path.startsWith('/')) route(path, m.index!);
      }
      if (scans.routes) for (const m of text.matchAll(URL_PATH)) route(m[1].replace(/[.,:;]+$/, ''), m.index!);
    }
  }
  return index;
}

/** Names too common to count outside code even there: they say nothing about which page went stale. */
const GENERIC = new Set(
  (
    'add all any app apply args async await bool build call close config context create ctx data default delete ' +
    'description dict do done else enabled error errors false file files find for format from get handle handler ' +
    'help id if import in index info init input int is key keys len list load log main map name new next none null ' +
    'object of on open options output params parse path port read remove request response result return run save ' +
    'self set settings start status stop str string test text this to true type update url user value values ' +
    'version with write'
  ).split(' '),
);

/** A name that cannot be an ordinary word: snake_case, camelCase, a dotted or dashed compound, a flag, a path. */
export function isDistinctive(identifier: string): boolean {
  return (
    /[_.\-/]/.test(identifier.replace(/^[-_]+|[-_]+$/g, '')) ||
    /[a-z][A-Z]/.test(identifier) ||
    /^[A-Z][a-z0-9]+[A-Z]/.test(identifier) ||
    /[A-Za-z]\d|\d[A-Za-z]/.test(identifier)
  );
}

/** Every docs mention of an identifier, by the rules of its kind. */
export function lookUp(index: DocsIndex, identifier: string, kind: IdentifierKind): Mention[] {
  if (kind === 'message') {
    const needle = identifier.toLowerCase();
    const phrase = phraseOf(identifier);
    const candidates = phrase ? (index.phrases.get(phrase) ?? []) : (index.tokens.get(identifier) ?? []);
    return candidates
      .filter((m) => index.lowerLines.get(m.page)?.[m.line - 1]?.includes(needle))
      .map((m) => ({ ...m, code: false }));
  }
  if (kind === 'http-route') return index.routes.get(normalizeRoute(identifier)) ?? [];
  const key = kind === 'file-path' ? identifier.replace(/^\.\//, '') : identifier;
  const mentions = index.tokens.get(key) ?? [];
  if (kind === 'cli-flag' || kind === 'file-path' || isDistinctive(identifier)) return mentions;
  if (identifier.length < 3 || (kind !== 'env-var' && GENERIC.has(identifier.toLowerCase()))) return [];
  return mentions.filter((m) => m.code);
}
