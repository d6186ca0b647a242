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

/** Kinds whose additions are worth looking for beside their documented siblings (a list of flags, variables…). */
const LISTED_KINDS: ReadonlySet<IdentifierKind> = new Set(['cli-flag', 'env-var', 'config-key', 'http-route']);

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
  const values = (list: Occurrence[]) => list.flatMap((o) => o.text.match(LITERAL_VALUES) ?? []);
  return !sameSet(values(removed), values(added));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function renameTarget(removed: Occurrence[], candidates: Map<string, Occurrence[]>): string | undefined {
  for (const [target, added] of candidates) {
    const addedLines = new Set(added.map((o) => squash(o.text)));
    for (const r of removed) {
      const pattern = new RegExp(`(?<![\\w$-])${escapeRegExp(r.identifier)}(?![\\w$-])`, 'g');
      if (addedLines.has(squash(r.text.replace(pattern, target)))) return target;
    }
  }
  return undefined;
}

function occurrencesOf(file: ChangedFileInput, index: number): Occurrence[] {
  const found: Occurrence[] = [];
  const push = (line: PatchLine, name: string, hunk: string) => {
    const source = sourceKind(line.side === '-' ? (file.previousFilename ?? name) : name);
    for (const id of extractIdentifiers(line.text, source, name))
      found.push({
        ...id,
        side: line.side,
        text: line.text,
        file: line.side === '-' ? (file.previousFilename ?? name) : name,
        line: line.line,
        hunk,
      });
  };
  if (file.status === 'removed' && file.removedText !== undefined) {
    file.removedText.split('\n').forEach((text, i) => {
      push({ side: '-', text, line: i + 1 }, file.filename, `${index}:0`);
    });
    return found;
  }
  parsePatch(file.patch ?? '').forEach((hunk, h) => {
    for (const line of hunk.lines) push(line, file.filename, `${index}:${h}`);
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

export function classifyChanges(files: ChangedFileInput[]): CodeChange[] {
  const changes = files.flatMap(fileChanges);
  const occurrences = files.flatMap(occurrencesOf);
  const byKey = new Map<string, { removed: Occurrence[]; added: Occurrence[]; context: Occurrence[] }>();
  for (const o of occurrences) {
    const key = `${o.kind}\n${o.identifier}`;
    const entry = byKey.get(key) ?? { removed: [], added: [], context: [] };
    (o.side === '-' ? entry.removed : o.side === '+' ? entry.added : entry.context).push(o);
    byKey.set(key, entry);
  }
  const addedOnly = new Map<string, Map<string, Occurrence[]>>();
  for (const { removed, added } of byKey.values()) {
    if (removed.length > 0 || added.length === 0) continue;
    const scope = `${added[0].kind}\n${added[0].file}`;
    const inScope = addedOnly.get(scope) ?? new Map<string, Occurrence[]>();
    inScope.set(added[0].identifier, added);
    addedOnly.set(scope, inScope);
  }
  const renamedTargets = new Set<string>();
  for (const { removed, added } of byKey.values()) {
    if (removed.length === 0) continue;
    const { identifier, kind } = removed[0];
    if (added.length > 0) {
      if (changedInSubstance(kind, removed, added))
        changes.push({
          identifier,
          kind,
          change: 'changed',
          codeFile: added[0].file,
          codeLine: added[0].line,
          codeSide: 'head',
        });
      continue;
    }
    const headFile = files.find((f) => f.previousFilename === removed[0].file)?.filename ?? removed[0].file;
    const candidates = addedOnly.get(`${kind}\n${headFile}`) ?? new Map<string, Occurrence[]>();
    let target = renameTarget(removed, candidates);
    if (!target) {
      // One identifier out and one in, of the same kind in the same hunk: a rename whatever else the line did.
      const hunk = removed[0].hunk;
      const outs = [...byKey.values()].filter(
        (e) => e.added.length === 0 && e.removed.some((o) => o.hunk === hunk && o.kind === kind),
      );
      const ins = [...candidates].filter(([, list]) => list.some((o) => o.hunk === hunk));
      if (outs.length === 1 && ins.length === 1) target = ins[0][0];
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
  for (const { added } of byKey.values()) {
    if (added.length === 0 || !LISTED_KINDS.has(added[0].kind)) continue;
    const { identifier, kind } = added[0];
    if ((byKey.get(`${kind}\n${identifier}`)?.removed.length ?? 0) > 0 || renamedTargets.has(`${kind}\n${identifier}`))
      continue;
    const hunks = new Set(added.map((o) => o.hunk));
    const siblings = [
      ...new Set(
        occurrences
          .filter((o) => o.kind === kind && hunks.has(o.hunk) && o.identifier !== identifier)
          .map((o) => o.identifier),
      ),
    ];
    changes.push({
      identifier,
      kind,
      change: 'added',
      codeFile: added[0].file,
      codeLine: added[0].line,
      codeSide: 'head',
      siblings,
    });
  }
  return changes;
}
