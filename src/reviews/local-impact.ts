/**
 * TEMPORARY stand-in for src/reviews/impact/ (issue 18 §2, written by the review-impact branch): the same interface,
 * a minimal deterministic analysis, so the check-run flow is built and tested against it. Deleted at merge.
 */

/** One entry of GitHub's pull request files listing. */
export interface ChangedFile {
  filename: string;
  status: string;
  previousFilename?: string;
  patch?: string;
  /** the text of a deleted (or wholly rewritten) file when GitHub sends no patch */
  removedText?: string;
}

export interface DocsPage {
  path: string;
  text: string;
}

export interface Finding {
  page: string;
  line: number;
  lineText: string;
  identifier: string;
  change: 'removed' | 'renamed' | 'added' | 'changed';
  renamedTo?: string;
  kind: string;
  codeFile: string;
  codeLine: number;
}

export interface DocsImpact {
  findings: Finding[];
  reviewedFiles: number;
  skippedFiles: string[];
}

const IDENTIFIER = /(--[a-z][a-z0-9-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\/v\d+\/[A-Za-z0-9/_{}-]+)/g;

function kindOf(identifier: string): string {
  if (identifier.startsWith('--')) return 'cli-flag';
  if (identifier.startsWith('/')) return 'http-route';
  return 'env-var';
}

export function findDocsImpact(params: {
  files: ChangedFile[];
  pages: DocsPage[];
  maxFiles?: number;
  maxPatchBytes?: number;
}): DocsImpact {
  const maxFiles = params.maxFiles ?? 5_000;
  const reviewed = params.files.slice(0, maxFiles);
  const skippedFiles = params.files.slice(maxFiles).map((f) => f.filename);
  let reviewedFiles = 0;
  const removed = new Map<string, { file: string; line: number; added: boolean }>();
  let budget = params.maxPatchBytes ?? 20 * 1024 * 1024;
  for (const file of reviewed) {
    const text = file.patch ?? (file.removedText ?? '').replace(/^/gm, '-');
    budget -= text.length;
    if (budget < 0) {
      skippedFiles.push(file.filename);
      continue;
    }
    reviewedFiles++;
    let line = 0;
    for (const row of text.split('\n')) {
      const hunk = row.match(/^@@ -\d+(?:,\d+)? \+(\d+)/);
      if (hunk) {
        line = Number(hunk[1]) - 1;
        continue;
      }
      if (!row.startsWith('-')) line++;
      if (row.startsWith('-') || row.startsWith('+'))
        for (const id of row.match(IDENTIFIER) ?? [])
          if (!removed.has(id) || row.startsWith('-'))
            removed.set(id, { file: file.filename, line: Math.max(line, 1), added: row.startsWith('+') });
    }
  }
  const findings: Finding[] = [];
  for (const page of params.pages)
    page.text.split('\n').forEach((lineText, i) => {
      for (const [identifier, at] of removed)
        if (lineText.includes(identifier))
          findings.push({
            page: page.path,
            line: i + 1,
            lineText,
            identifier,
            change: at.added ? 'changed' : 'removed',
            kind: kindOf(identifier),
            codeFile: at.file,
            codeLine: at.line,
          });
    });
  return { findings, reviewedFiles, skippedFiles };
}

export function renderCheckOutput(params: {
  impact: DocsImpact;
  rejected?: Finding[];
  reasons?: Record<string, string>;
  modelUsed: string | null;
  docsRepoUrl: string;
  docsRef: string;
  sourceRepoUrl: string;
  headSha: string;
  docsPullRequestUrl?: string;
}): { title: string; summary: string; pageCount: number } {
  const pages = [...new Set(params.impact.findings.map((f) => f.page))];
  const title = pages.length
    ? `${pages.length} docs page${pages.length === 1 ? '' : 's'} may need an update`
    : 'No docs impact found';
  const lines = params.impact.findings.map(
    (f) =>
      `- [${f.page}:${f.line}](${params.docsRepoUrl}/blob/${params.docsRef}/${f.page}#L${f.line}) \`${f.identifier}\` (${f.change}; ${f.codeFile}:${f.codeLine})${params.reasons?.[`${f.page}:${f.line}:${f.identifier}`] ? ` ${params.reasons[`${f.page}:${f.line}:${f.identifier}`]}` : ''}`,
  );
  const rejected = (params.rejected ?? []).map((f) => `- ${f.page}:${f.line} \`${f.identifier}\``);
  const summary = [
    params.modelUsed ? `Judged by ${params.modelUsed}.` : 'No model is configured: this is the deterministic list.',
    ...lines,
    ...(rejected.length ? ['', 'Checked, probably fine:', ...rejected] : []),
    ...(params.impact.skippedFiles.length ? ['', `Not read: ${params.impact.skippedFiles.join(', ')}`] : []),
    ...(params.docsPullRequestUrl ? ['', `Docs draft: ${params.docsPullRequestUrl}`] : []),
  ].join('\n');
  return { title, summary, pageCount: pages.length };
}
