import type { Finding, Impact } from './find-impact.js';

/**
 * The title and Markdown summary of the `Scribe docs` check run. Pure. Findings are grouped by page in their ranked
 * order; each links to its docs line and to the code line that changed it. The summary stays under the Checks API's
 * 65,535-character limit: entries that would not fit are counted, never cut in half.
 */
export const MAX_SUMMARY_CHARS = 65_535;
// Room kept for the closing lines that say what was left out.
const TAIL_RESERVE = 600;
const MAX_QUOTE = 160;

function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function describeChange(finding: Finding): string {
  if (finding.change === 'renamed' && finding.renamedTo !== undefined) return `renamed to ${code(finding.renamedTo)}`;
  return finding.change;
}

export function renderCheckOutput(params: {
  impact: Impact;
  rejected?: { finding: Finding; reason: string }[];
  reasons?: Map<Finding, string>;
  modelUsed: boolean;
  docsRepoUrl: string;
  docsRef: string;
  sourceRepoUrl: string;
  headSha: string;
  /** Links a removed line to the base commit; without it a removed line is named, not linked. */
  baseSha?: string;
  docsPullRequestUrl?: string;
}): { title: string; summary: string; pageCount: number } {
  const { impact, rejected = [], reasons } = params;
  const pages = [...new Set(impact.findings.map((f) => f.page))];
  const pageCount = pages.length;
  const title = pageCount === 0 ? 'No docs impact found' : `${plural(pageCount, 'docs page')} may need an update`;
  const docsLink = (f: Finding) =>
    `${params.docsRepoUrl}/blob/${encodeURIComponent(params.docsRef)}/${encodePath(f.page)}#L${f.line}`;
  const codeLink = (f: Finding) => {
    const label = `${f.codeFile}:${f.codeLine}`;
    if (f.codeSide === 'base')
      return params.baseSha
        ? `[${label}](${params.sourceRepoUrl}/blob/${params.baseSha}/${encodePath(f.codeFile)}#L${f.codeLine}) (removed line)`
        : `${code(label)} (removed line)`;
    return `[${label}](${params.sourceRepoUrl}/blob/${params.headSha}/${encodePath(f.codeFile)}#L${f.codeLine})`;
  };
  const entry = (f: Finding, reason: string | undefined) => {
    const quote = f.lineText.length > MAX_QUOTE ? `${f.lineText.slice(0, MAX_QUOTE)}…` : f.lineText;
    return (
      `- [line ${f.line}](${docsLink(f)}): ${code(f.identifier)} ${describeChange(f)} (${f.kind})` +
      `${reason ? ` — ${reason}` : ''}; changed at ${codeLink(f)}${quote ? `\n  > ${quote.replace(/\n/g, ' ')}` : ''}`
    );
  };

  const head: string[] = [];
  head.push(
    pageCount === 0
      ? `Scribe found no docs page that mentions what this pull request changes (${plural(impact.reviewedFiles, 'changed file')} looked at).`
      : `Scribe found ${plural(impact.findings.length, 'mention')} on ${plural(pageCount, 'docs page')} of identifiers this pull request removes, renames, changes or adds (${plural(impact.reviewedFiles, 'changed file')} looked at).`,
  );
  if (!params.modelUsed && pageCount > 0)
    head.push(
      'No model is configured, so this list is unjudged: each entry is a deterministic match of a changed identifier in the docs, not a verdict that the page is wrong.',
    );
  if (params.docsPullRequestUrl) head.push(`Docs draft: ${params.docsPullRequestUrl}`);
  if (impact.skippedFiles.length > 0)
    head.push(
      `The diff is too large to read whole: only the first ${plural(impact.reviewedFiles, 'file')} were looked at; the other ${plural(impact.skippedFiles.length, 'file')} ${impact.skippedFiles.length === 1 ? 'is' : 'are'} listed at the end.`,
    );

  let summary = head.join('\n\n');
  const budget = MAX_SUMMARY_CHARS - TAIL_RESERVE;
  const append = (text: string) => {
    if (summary.length + text.length + 1 > budget) return false;
    summary += `\n${text}`;
    return true;
  };
  let shown = 0;
  let full = false;
  let currentPage: string | undefined;
  for (const f of impact.findings) {
    const heading =
      f.page === currentPage
        ? ''
        : `\n### [${f.page}](${params.docsRepoUrl}/blob/${encodeURIComponent(params.docsRef)}/${encodePath(f.page)})\n`;
    if (!append(`${heading}${entry(f, reasons?.get(f))}`)) {
      full = true;
      break;
    }
    currentPage = f.page;
    shown++;
  }
  let rejectedShown = 0;
  if (!full && rejected.length > 0 && append('\n### Checked, probably fine')) {
    for (const { finding, reason } of rejected) {
      if (!append(entry(finding, reason))) break;
      rejectedShown++;
    }
  }
  let skippedShown = 0;
  if (impact.skippedFiles.length > 0 && append('\n### Files not looked at')) {
    for (const name of impact.skippedFiles) {
      if (!append(`- ${code(name)}`)) break;
      skippedShown++;
    }
  }
  const tail: string[] = [];
  if (shown < impact.findings.length)
    tail.push(`${plural(impact.findings.length - shown, 'more finding')} not shown (the summary is limited in size).`);
  if (rejectedShown < rejected.length)
    tail.push(`${plural(rejected.length - rejectedShown, 'more checked finding')} not shown.`);
  if (skippedShown < impact.skippedFiles.length)
    tail.push(`${plural(impact.skippedFiles.length - skippedShown, 'more skipped file')} not listed.`);
  if (tail.length > 0) summary += `\n\n${tail.join(' ')}`;
  return { title, summary, pageCount };
}
