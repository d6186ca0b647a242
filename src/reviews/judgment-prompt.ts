import type { ChangedFile, Finding } from './impact/find-impact.js';

/** A rough count that errs high: English and code run 3.5-4 characters a token, so 3 keeps under the cap. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 3);

export const JUDGMENT_SYSTEM = `You review whether documentation pages describe behaviour a code pull request changes.
For each numbered finding (a docs line that mentions an identifier the diff adds, removes or renames), decide whether
the page really describes behaviour this pull request changes (stale: true) or only mentions the name in a way the
change does not affect (stale: false). Answer with JSON only, no prose:
{"verdicts":[{"id":1,"stale":true,"reason":"one line"}]}
Give a verdict for every finding id.`;

/**
 * The one message of a judgment call, within `maxInputTokens` (system prompt included): the findings first (as many
 * as fit; the rest are not judged and stay on the list), then the patches of the files they come from, then the other
 * patches, each cut where the budget ends. Pure.
 */
export function buildJudgmentPrompt(params: { findings: Finding[]; files: ChangedFile[]; maxInputTokens: number }): {
  text: string;
  judged: Finding[];
  diffCut: boolean;
} {
  let budget = params.maxInputTokens - estimateTokens(JUDGMENT_SYSTEM) - 50;
  const lines: string[] = ['Findings:'];
  const judged: Finding[] = [];
  for (const f of params.findings) {
    const line = `${judged.length + 1}. ${f.page}:${f.line} mentions \`${f.identifier}\` (${f.kind}, ${f.change}${f.renamedTo ? ` to \`${f.renamedTo}\`` : ''} in ${f.codeFile}:${f.codeLine}): ${f.lineText.trim().slice(0, 300)}`;
    if (estimateTokens(line) + 1 > budget) break;
    budget -= estimateTokens(line) + 1;
    lines.push(line);
    judged.push(f);
  }
  lines.push('', 'Diff:');
  const cited = new Set(judged.map((f) => f.codeFile));
  const ordered = [...params.files].sort((a, b) => Number(cited.has(b.filename)) - Number(cited.has(a.filename)));
  let diffCut = false;
  for (const file of ordered) {
    const body = file.patch ?? (file.removedText !== undefined ? '(deleted)' : `(${file.status}, no text diff)`);
    const block = `--- ${file.previousFilename ? `${file.previousFilename} -> ` : ''}${file.filename} (${file.status})\n${body}`;
    const cost = estimateTokens(block) + 1;
    if (cost <= budget) {
      lines.push(block);
      budget -= cost;
      continue;
    }
    diffCut = true;
    if (budget > 40) lines.push(`${block.slice(0, (budget - 20) * 3)}\n[diff cut to fit the token cap]`);
    break;
  }
  return { text: lines.join('\n'), judged, diffCut };
}

export interface Verdict {
  stale: boolean;
  reason: string;
}

/**
 * The model's verdicts by finding number (1-based); a finding without a verdict, or an answer that is not the asked
 * JSON, gets none, and stays on the list of pages to update. Pure.
 */
export function parseJudgment(text: string): Map<number, Verdict> {
  const verdicts = new Map<number, Verdict>();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return verdicts;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return verdicts;
  }
  const list = (parsed as { verdicts?: unknown })?.verdicts;
  if (!Array.isArray(list)) return verdicts;
  for (const v of list as { id?: unknown; stale?: unknown; reason?: unknown }[]) {
    if (!Number.isInteger(v?.id) || typeof v.stale !== 'boolean') continue;
    const reason = typeof v.reason === 'string' ? v.reason.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
    verdicts.set(v.id as number, { stale: v.stale, reason });
  }
  return verdicts;
}
