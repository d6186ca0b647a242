import { classifyChanges, type CodeChange } from './classify-changes.js';
import { buildDocsIndex, lookUp, type DocsIndex, type DocsPage, type Mention } from './docs-index.js';
import type { IdentifierKind } from './extract-identifiers.js';

export type { DocsPage } from './docs-index.js';

/**
 * The docs impact of a pull request's diff, found without a model. Pure: the caller reads the changed files and the
 * docs pages. Rules (the README's "Review source pull requests" section repeats them):
 * - identifiers come from declarations and literals in telling places only (see extract-identifiers.ts); tests,
 *   lock files, manifests, generated code and the source repository's own prose are left out;
 * - a removed or renamed identifier is a finding wherever the docs still mention it; a changed one (same name, a
 *   different signature, default or description on its line) likewise;
 * - an added identifier is a finding only on the page that documents its siblings (flags, variables, keys or routes
 *   of the same hunk) and only when the docs do not mention it yet: a new name documented nowhere is not a finding
 *   by itself;
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

/** For an added name: the mentions of its siblings on the page(s) that document the most of them. */
function siblingMentions(index: DocsIndex, change: CodeChange): Mention[] {
  const byPage = new Map<string, { siblings: Set<string>; first: Mention }>();
  for (const sibling of change.siblings ?? [])
    for (const mention of lookUp(index, sibling, change.kind)) {
      const entry = byPage.get(mention.page) ?? { siblings: new Set<string>(), first: mention };
      entry.siblings.add(sibling);
      if (mention.line < entry.first.line) entry.first = mention;
      byPage.set(mention.page, entry);
    }
  const most = Math.max(0, ...[...byPage.values()].map((e) => e.siblings.size));
  const best = [...byPage.values()].filter((e) => e.siblings.size === most && most > 0);
  return best.length <= MAX_SIBLING_PAGES ? best.map((e) => e.first) : [];
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
  const index = buildDocsIndex(params.pages);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const change of classifyChanges(reviewed)) {
    let mentions = lookUp(index, change.identifier, change.kind);
    if (change.change === 'added') mentions = mentions.length > 0 ? [] : siblingMentions(index, change);
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
      a.page.localeCompare(b.page) ||
      a.line - b.line ||
      a.identifier.localeCompare(b.identifier),
  );
  return { findings, reviewedFiles: reviewed.length, skippedFiles: skipped };
}
