import { CONSTANT_NAME, classifyChanges, type CodeChange } from './classify-changes.js';
import { buildDocsIndex, lookUp, wantedKeys, type DocsIndex, type DocsPage, type Mention } from './docs-index.js';
import type { IdentifierKind } from './extract-identifiers.js';

export type { DocsPage } from './docs-index.js';

/**
 * The docs impact of a pull request's diff, found without a model. Pure: the caller reads the changed files and the
 * docs pages. Rules (the README's "Docs review: how the impact is found" repeats them):
 * - identifiers come from declarations and literals in telling places only (see extract-identifiers.ts); tests,
 *   lock files, manifests, generated code and the source repository's own prose are left out;
 * - a removed or renamed identifier is a finding wherever the docs still mention it; a changed one (same name, a
 *   different signature, default or description on its line) likewise, except that a changed flag, variable, key
 *   or route whose line lost a value (an old default, an old description) counts only on pages still showing it;
 * - an added identifier is a finding only on the page that lists its siblings (names of its kind in the same hunk,
 *   not new themselves; see classify-changes.ts) and only when the docs do not mention it yet: a new name with no
 *   documented sibling is not a finding;
 * - plain words match only inside code (fences, inline code, tags, OpenAPI files), and very common names not at all;
 * - at most three mentions per page and identifier; removed and renamed first, then changed, then added.
 */
export interface ChangedFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  previousFilename?: string;
  /** Unified diff hunks; absent for binary or too-large files. */
  patch?: string;
  /** Full old content of a removed file: its exported names count as removed. */
  removedText?: string;
}

export interface Finding {
  page: string;
  /** 1-based line in the docs page. */
  line: number;
  lineText: string;
  identifier: string;
  change: 'removed' | 'renamed' | 'added' | 'changed';
  renamedTo?: string;
  kind: IdentifierKind;
  /** The diff hunk line that changed it. */
  codeFile: string;
  codeLine: number;
  /** Which side codeLine counts in: `base` for a removed line (it no longer exists at the head). */
  codeSide?: 'base' | 'head';
}

export interface Impact {
  findings: Finding[];
  reviewedFiles: number;
  /** Files past the limits, by name: looked at by no one. */
  skippedFiles: string[];
}

export const DEFAULT_MAX_FILES = 5_000;
export const DEFAULT_MAX_PATCH_BYTES = 20 * 1024 * 1024;
const MENTIONS_PER_PAGE = 3;
const MAX_LINE_TEXT = 300;
/** An added name whose siblings are documented on more pages than this has no one page that lists them. */
const MAX_SIBLING_PAGES = 3;
const CHANGE_RANK: Record<Finding['change'], number> = { removed: 0, renamed: 0, changed: 1, added: 2 };

/** Code-unit order: stable across machines and locales, and far cheaper than localeCompare over many findings. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function limitFiles(files: ChangedFile[], maxFiles: number, maxPatchBytes: number) {
  const reviewed: ChangedFile[] = [];
  const skipped: string[] = [];
  let bytes = 0;
  for (const file of files) {
    const size = Buffer.byteLength(file.patch ?? '') + Buffer.byteLength(file.removedText ?? '');
    if (skipped.length > 0 || reviewed.length >= maxFiles || bytes + size > maxPatchBytes) skipped.push(file.filename);
    else {
      reviewed.push(file);
      bytes += size;
    }
  }
  return { reviewed, skipped };
}

/**
 * For an added name: where the page that lists its siblings mentions the first of them. That page documents the
 * most distinct siblings and, among those, on the most lines: a table or list gives each its own line, while a
 * guide that uses two flags in one command names them on one.
 */
function siblingMentions(index: DocsIndex, change: CodeChange): Mention[] {
  const byPage = new Map<string, { siblings: Set<string>; lines: Set<number>; first: Mention }>();
  for (const sibling of change.siblings ?? [])
    for (const mention of lookUp(index, sibling, change.kind)) {
      const entry = byPage.get(mention.page) ?? {
        siblings: new Set<string>(),
        lines: new Set<number>(),
        first: mention,
      };
      entry.siblings.add(sibling);
      entry.lines.add(mention.line);
      if (mention.line < entry.first.line) entry.first = mention;
      byPage.set(mention.page, entry);
    }
  const entries = [...byPage.values()];
  const most = Math.max(0, ...entries.map((e) => e.siblings.size));
  const listing = entries.filter((e) => e.siblings.size === most && most > 0);
  const longest = Math.max(0, ...listing.map((e) => e.lines.size));
  const best = listing.filter((e) => e.lines.size === longest);
  return best.length <= MAX_SIBLING_PAGES ? best.map((e) => e.first) : [];
}

/** Words that say what kind of number a constant holds, not what it is about. */
const UNIT_WORDS = new Set(['default', 'max', 'min', 'ms', 'sec', 'secs', 'seconds', 'num', 'value', 'const']);
/** A review looks for the old values of this many changed constants at most (a generated file changes thousands). */
const MAX_CONSTANTS = 50;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * For a changed constant the docs do not name (`DEFAULT_TIMEOUT_MS`): the docs lines that show one of its old
 * values (10000, 10,000) and every word of its name (`timeout`), as a defaults table does (`timeoutMs` … `10000`).
 */
function valueMentions(index: DocsIndex, change: CodeChange): Mention[] {
  const words = change.identifier
    .toLowerCase()
    .split('_')
    .filter((word) => word.length >= 3 && !UNIT_WORDS.has(word));
  if (words.length === 0) return [];
  const values = (change.oldValues ?? []).flatMap((value) =>
    /^\d{4,}$/.test(value) ? [value, Number(value).toLocaleString('en-US')] : [value],
  );
  const patterns = values.map((value) => new RegExp(`(?<![\\w.])${escapeRegExp(value.toLowerCase())}(?![\\w])`));
  const found: Mention[] = [];
  for (const [page, lines] of index.lowerLines)
    lines.forEach((line, i) => {
      if (words.every((word) => line.includes(word)) && patterns.some((pattern) => pattern.test(line)))
        found.push({ page, line: i + 1, code: false });
    });
  return found;
}

export function findDocsImpact(params: {
  files: ChangedFile[];
  pages: DocsPage[];
  maxFiles?: number;
  maxPatchBytes?: number;
}): Impact {
  const { reviewed, skipped } = limitFiles(
    params.files,
    params.maxFiles ?? DEFAULT_MAX_FILES,
    params.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES,
  );
  const changes = classifyChanges(reviewed);
  const index = buildDocsIndex(
    params.pages,
    wantedKeys(changes.flatMap((c) => [c, ...(c.siblings ?? []).map((identifier) => ({ identifier, kind: c.kind }))])),
  );
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const pageTexts = new Map<string, string>();
  const pageText = (page: string) => {
    let text = pageTexts.get(page);
    if (text === undefined) pageTexts.set(page, (text = (index.lowerLines.get(page) ?? []).join('\n')));
    return text;
  };
  let constants = 0;
  for (const change of changes) {
    let mentions = lookUp(index, change.identifier, change.kind);
    if (
      change.change === 'changed' &&
      change.kind === 'symbol' &&
      CONSTANT_NAME.test(change.identifier) &&
      (change.oldValues?.length ?? 0) > 0 &&
      constants++ < MAX_CONSTANTS
    )
      mentions = [...mentions, ...valueMentions(index, change)];
    if (change.change === 'added') mentions = mentions.length > 0 ? [] : siblingMentions(index, change);
    // A constant's mentions were found by its old values already; others must show one on their page.
    const oldValues = change.kind === 'symbol' ? [] : (change.oldValues?.map((value) => value.toLowerCase()) ?? []);
    if (oldValues.length > 0)
      mentions = mentions.filter((m) => oldValues.some((value) => pageText(m.page).includes(value)));
    const perPage = new Map<string, number>();
    for (const mention of mentions) {
      const count = perPage.get(mention.page) ?? 0;
      const key = `${mention.page}\n${mention.line}\n${change.kind}\n${change.identifier}`;
      if (count >= MENTIONS_PER_PAGE || seen.has(key)) continue;
      perPage.set(mention.page, count + 1);
      seen.add(key);
      const lineText = (index.lines.get(mention.page)?.[mention.line - 1] ?? '').trim().slice(0, MAX_LINE_TEXT);
      findings.push({
        page: mention.page,
        line: mention.line,
        lineText,
        identifier: change.identifier,
        change: change.change,
        ...(change.renamedTo !== undefined ? { renamedTo: change.renamedTo } : {}),
        kind: change.kind,
        codeFile: change.codeFile,
        codeLine: change.codeLine,
        codeSide: change.codeSide,
      });
    }
  }
  findings.sort(
    (a, b) =>
      CHANGE_RANK[a.change] - CHANGE_RANK[b.change] ||
      compare(a.page, b.page) ||
      a.line - b.line ||
      compare(a.identifier, b.identifier),
  );
  return { findings, reviewedFiles: reviewed.length, skippedFiles: skipped };
}
