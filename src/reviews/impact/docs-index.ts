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
}

const WORD = /[A-Za-z_$][\w$]*/g;
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

function codeSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
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

export function buildDocsIndex(pages: DocsPage[]): DocsIndex {
  const index: DocsIndex = { tokens: new Map(), routes: new Map(), lines: new Map() };
  for (const page of pages) {
    const lines = page.text.split(/\r?\n/);
    index.lines.set(page.path, lines);
    const dataFile = DATA_FILE.test(page.path);
    let fenced = false;
    lines.forEach((text, i) => {
      if (FENCE.test(text)) {
        fenced = !fenced;
        return;
      }
      const spans = fenced || dataFile ? [] : codeSpans(text);
      const inCode = (at: number) => fenced || dataFile || spans.some(([from, to]) => at >= from && at < to);
      const mention = (at: number): Mention => ({ page: page.path, line: i + 1, code: inCode(at) });
      for (const m of text.matchAll(WORD)) add(index.tokens, m[0], mention(m.index!));
      for (const m of text.matchAll(COMPOUND)) add(index.tokens, m[0].replace(/[.-]+$/, ''), mention(m.index!));
      for (const m of text.matchAll(FLAG)) add(index.tokens, m[0], mention(m.index!));
      const route = (token: string, at: number) => {
        const segments = normalizeRoute(token).split('/').slice(1);
        for (let from = 0; from < segments.length; from++)
          if (from === 0 || segments.length - from >= 2)
            add(index.routes, `/${segments.slice(from).join('/')}`, mention(at));
      };
      for (const m of text.matchAll(SLASHED)) {
        const token = m[0].replace(/[.,:;]+$/, '');
        add(index.tokens, token.replace(/^\.\//, ''), mention(m.index!));
        if (token.startsWith('/')) route(token, m.index!);
      }
      for (const m of text.matchAll(URL_PATH)) route(m[1].replace(/[.,:;]+$/, ''), m.index!);
    });
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
    const found: Mention[] = [];
    for (const [page, lines] of index.lines)
      lines.forEach((text, i) => {
        if (text.toLowerCase().includes(needle)) found.push({ page, line: i + 1, code: false });
      });
    return found;
  }
  if (kind === 'http-route') return index.routes.get(normalizeRoute(identifier)) ?? [];
  const key = kind === 'file-path' ? identifier.replace(/^\.\//, '') : identifier;
  const mentions = index.tokens.get(key) ?? [];
  if (kind === 'cli-flag' || kind === 'file-path' || isDistinctive(identifier)) return mentions;
  if (identifier.length < 3 || (kind !== 'env-var' && GENERIC.has(identifier.toLowerCase()))) return [];
  return mentions.filter((m) => m.code);
}
