import { isDistinctive } from './docs-index.js';
import { extractIdentifiers, type IdentifierKind } from './extract-identifiers.js';
import { parsePatch, type PatchLine } from './parse-patch.js';
import { sourceKind } from './source-kind.js';

/**
 * What a pull request's diff does to each identifier it touches. Pure. An identifier seen only on removed lines
 * (or in a deleted file) is removed, unless a matching added line shows it renamed; one seen on both sides is
 * changed when the lines around it differ in substance, and merely moved otherwise; one seen only on added lines is
 * added, and carries its siblings (same kind, same hunk) so the docs page that lists them can be found.
 */
export interface ChangedFileInput {
  filename: string;
  status: string;
  previousFilename?: string;
  patch?: string;
  removedText?: string;
}

export interface CodeChange {
  identifier: string;
  kind: IdentifierKind;
  change: 'removed' | 'renamed' | 'added' | 'changed';
  renamedTo?: string;
  codeFile: string;
  codeLine: number;
  /** Which side of the diff codeLine counts in: the base for removed lines, the head otherwise. */
  codeSide: 'base' | 'head';
  /** For added identifiers: others of the same kind in the same hunk, whose docs page likely lists this one too. */
  siblings?: string[];
  /**
   * For a changed flag, variable, key or route: the values its lines lost (an old default, an old description).
   * A page that still shows one of them describes what changed; a page that only names the identifier may not.
   */
  oldValues?: string[];
}

interface Occurrence {
  identifier: string;
  kind: IdentifierKind;
  side: PatchLine['side'];
  text: string;
  file: string;
  line: number;
  hunk: string;
}

/**
 * Kinds whose additions are worth looking for beside their documented siblings (a list of flags, variables, keys,
 * routes, methods or metrics). Siblings are names of the same kind in the same hunk that are not new themselves and
 * that cannot be ordinary words (a plain `check` beside a new method says nothing about where the method belongs).
 */
const LISTED_KINDS: ReadonlySet<IdentifierKind> = new Set([
  'cli-flag',
  'env-var',
  'config-key',
  'http-route',
  'symbol',
]);

/** A constant's name: its old value is what the docs may still show. */
export const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** Kinds whose names can be ordinary words; a flag, a variable or a route never is. */
const WORDY_KINDS: ReadonlySet<IdentifierKind> = new Set(['symbol', 'config-key']);

const squash = (text: string) => text.replace(/\s+/g, '').replace(/[,;]+$/, '');
const LITERAL_VALUES =
  /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|\b\d[\d_.]*\b|\b(?:true|false|True|False|nil|null|None)\b/g;

function sameSet(a: string[], b: string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

/**
 * A declaration as its caller sees it: names, parameters and defaults, without type annotations, return types or
 * layout, so that adding type hints or reformatting is no change.
 */
function signature(text: string): string {
  return squash(
    text
      .replace(/\)\s*(?:->|:)\s*[^{=]*[{:]?\s*$/, ')')
      .replace(/:\s*[^,=()]+(?=[,=)])/g, '')
      .replace(/[{:]\s*$/, ''),
  );
}

/**
 * Whether lines naming an identifier on both sides differ in what a reader would see: a declaration's text for
 * symbols (a signature), the literal values around a flag, variable, key or route (a default, a description).
 * A moved or reformatted line is no change.
 */
function changedInSubstance(kind: IdentifierKind, removed: Occurrence[], added: Occurrence[]): boolean {
  // A message is its text: the same text on both sides is the same message.
  if (kind === 'message') return false;
  if (kind === 'symbol')
    return !sameSet(
      removed.map((o) => signature(o.text)),
      added.map((o) => signature(o.text)),
    );
  return !sameSet(literalValues(removed), literalValues(added));
}

function literalValues(list: Occurrence[]): string[] {
  return list.flatMap((o) => o.text.match(LITERAL_VALUES) ?? []);
}

/** Values on the removed lines and on none of the added ones, unquoted, leaving out those too short to tell. */
function lostValues(removed: Occurrence[], added: Occurrence[]): string[] {
  const kept = new Set(literalValues(added));
  const lost = literalValues(removed)
    .filter((value) => !kept.has(value))
    .map((value) => value.replace(/^["'`]|["'`]$/g, ''))
    // Docs write 10000 for the code's 10_000.
    .map((value) => (/^\d[\d_.]*$/.test(value) ? value.replace(/_/g, '') : value))
    .filter((value) => value.length >= 3 && !/^(true|false|nil|null|none)$/i.test(value));
  return [...new Set(lost)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A line with one name blanked out: a removed and an added line with the same template differ only by that name. */
function template(text: string, identifier: string, patterns: Map<string, RegExp>): string {
  let pattern = patterns.get(identifier);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\w$-])${escapeRegExp(identifier)}(?![\\w$-])`, 'g');
    patterns.set(identifier, pattern);
  }
  return squash(text.replace(pattern, '\u0000'));
}

function occurrencesOf(file: ChangedFileInput, index: number): Occurrence[] {
  const found: Occurrence[] = [];
  // Removed lines belong to the file as it was named in the base, the others to its name at the head.
  const baseName = file.previousFilename ?? file.filename;
  const sources = { base: sourceKind(baseName), head: sourceKind(file.filename) };
  const push = (line: PatchLine, hunk: string) => {
    const name = line.side === '-' ? baseName : file.filename;
    for (const id of extractIdentifiers(line.text, line.side === '-' ? sources.base : sources.head, name))
      found.push({ ...id, side: line.side, text: line.text, file: name, line: line.line, hunk });
  };
  if (file.status === 'removed' && file.removedText !== undefined) {
    file.removedText.split('\n').forEach((text, i) => {
      push({ side: '-', text, line: i + 1 }, `${index}:0`);
    });
    return found;
  }
  parsePatch(file.patch ?? '').forEach((hunk, h) => {
    for (const line of hunk.lines) push(line, `${index}:${h}`);
  });
  return found;
}

/** A Python module's dotted import path (`src/acme/net/http.py` → `acme.net.http`), as docs import it. */
function pythonModule(path: string): string | undefined {
  if (!/\.py$/.test(path) || sourceKind(path).kind === 'skip') return undefined;
  const parts = path
    .replace(/\.py$/, '')
    .replace(/\/__init__$/, '')
    .split('/');
  while (parts.length > 1 && ['src', 'lib', 'python'].includes(parts[0])) parts.shift();
  return parts.length >= 2 && parts.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? parts.join('.') : undefined;
}

function fileChanges(file: ChangedFileInput): CodeChange[] {
  const changes: CodeChange[] = [];
  if (file.status === 'removed') {
    changes.push({
      identifier: file.filename,
      kind: 'file-path',
      change: 'removed',
      codeFile: file.filename,
      codeLine: 1,
      codeSide: 'base',
    });
    const module = pythonModule(file.filename);
    if (module)
      changes.push({
        identifier: module,
        kind: 'symbol',
        change: 'removed',
        codeFile: file.filename,
        codeLine: 1,
        codeSide: 'base',
      });
  }
  if (file.status === 'renamed' && file.previousFilename && file.previousFilename !== file.filename) {
    changes.push({
      identifier: file.previousFilename,
      kind: 'file-path',
      change: 'renamed',
      renamedTo: file.filename,
      codeFile: file.filename,
      codeLine: 1,
      codeSide: 'head',
    });
    const from = pythonModule(file.previousFilename);
    const to = pythonModule(file.filename);
    if (from && to && from !== to)
      changes.push({
        identifier: from,
        kind: 'symbol',
        change: 'renamed',
        renamedTo: to,
        codeFile: file.filename,
        codeLine: 1,
        codeSide: 'head',
      });
  }
  return changes;
}

/** The names of each kind in each hunk, built once so that no lookup scans every occurrence. */
function namesByHunk(occurrences: Iterable<Occurrence>): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const o of occurrences) {
    const key = `${o.hunk}\n${o.kind}`;
    const group = groups.get(key);
    if (group) group.add(o.identifier);
    else groups.set(key, new Set([o.identifier]));
  }
  return groups;
}

export function classifyChanges(files: ChangedFileInput[]): CodeChange[] {
  const changes = files.flatMap(fileChanges);
  const occurrences = files.flatMap(occurrencesOf);
  const byKey = new Map<string, { removed: Occurrence[]; added: Occurrence[] }>();
  for (const o of occurrences) {
    if (o.side === ' ') continue;
    const key = `${o.kind}\n${o.identifier}`;
    const entry = byKey.get(key) ?? { removed: [], added: [] };
    (o.side === '-' ? entry.removed : entry.added).push(o);
    byKey.set(key, entry);
  }
  const removedOnly = [...byKey.values()].filter((e) => e.added.length === 0).map((e) => e.removed);
  const addedOnly = [...byKey.values()].filter((e) => e.removed.length === 0).map((e) => e.added);
  // Added-only names by file and kind, and by the template of each of their lines.
  const addedByFile = new Map<string, Map<string, Occurrence[]>>();
  const templates = new Map<string, string>();
  const patterns = new Map<string, RegExp>();
  for (const added of addedOnly) {
    const scope = `${added[0].kind}\n${added[0].file}`;
    const inScope = addedByFile.get(scope) ?? new Map<string, Occurrence[]>();
    inScope.set(added[0].identifier, added);
    addedByFile.set(scope, inScope);
    for (const o of added) templates.set(`${scope}\n${template(o.text, o.identifier, patterns)}`, o.identifier);
  }
  const removedInHunk = namesByHunk(removedOnly.flat());
  const addedInHunk = namesByHunk(addedOnly.flat());
  const namesInHunk = namesByHunk(occurrences);
  const headFiles = new Map(files.flatMap((f) => (f.previousFilename ? [[f.previousFilename, f.filename]] : [])));

  // A sibling that is new itself cannot show where the docs list its kind.
  const newNames = new Set(addedOnly.map((list) => `${list[0].kind}\n${list[0].identifier}`));
  const renamedTargets = new Set<string>();
  for (const { removed, added } of byKey.values()) {
    if (removed.length === 0) continue;
    const { identifier, kind } = removed[0];
    if (added.length > 0) {
      if (changedInSubstance(kind, removed, added))
        changes.push({
          ...(kind !== 'symbol' || CONSTANT_NAME.test(identifier)
            ? { oldValues: lostValues(removed, added).filter((v) => v !== identifier) }
            : {}),
          identifier,
          kind,
          change: 'changed',
          codeFile: added[0].file,
          codeLine: added[0].line,
          codeSide: 'head',
        });
      continue;
    }
    const scope = `${kind}\n${headFiles.get(removed[0].file) ?? removed[0].file}`;
    const candidates = addedByFile.get(scope) ?? new Map<string, Occurrence[]>();
    let target: string | undefined;
    for (const r of removed) target ??= templates.get(`${scope}\n${template(r.text, identifier, patterns)}`);
    if (!target) {
      // One identifier out and one in, of the same kind in the same hunk: a rename whatever else the line did.
      const hunkKey = `${removed[0].hunk}\n${kind}`;
      const ins = [...(addedInHunk.get(hunkKey) ?? [])].filter((name) => candidates.has(name));
      if (removedInHunk.get(hunkKey)?.size === 1 && ins.length === 1) target = ins[0];
    }
    if (target) {
      renamedTargets.add(`${kind}\n${target}`);
      const at = candidates.get(target)![0];
      changes.push({
        identifier,
        kind,
        change: 'renamed',
        renamedTo: target,
        codeFile: at.file,
        codeLine: at.line,
        codeSide: 'head',
      });
    } else {
      changes.push({
        identifier,
        kind,
        change: 'removed',
        codeFile: removed[0].file,
        codeLine: removed[0].line,
        codeSide: 'base',
      });
    }
  }
  for (const added of addedOnly) {
    const { identifier, kind } = added[0];
    if (!LISTED_KINDS.has(kind) || renamedTargets.has(`${kind}\n${identifier}`)) continue;
    const siblings = new Set<string>();
    for (const o of added)
      for (const name of namesInHunk.get(`${o.hunk}\n${kind}`) ?? [])
        if (name !== identifier && !newNames.has(`${kind}\n${name}`) && (!WORDY_KINDS.has(kind) || isDistinctive(name)))
          siblings.add(name);
    changes.push({
      identifier,
      kind,
      change: 'added',
      codeFile: added[0].file,
      codeLine: added[0].line,
      codeSide: 'head',
      siblings: [...siblings],
    });
  }
  return changes;
}
