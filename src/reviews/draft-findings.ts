import type { Db } from '../db/client.js';
import type { Finding } from './impact/find-impact.js';
import { latestReview } from './review-store.js';
import type { DraftFindings } from './draft-prompt.js';

/** A finding as the review keeps it for a draft: the model's reason, when it judged, beside it. */
type KeptFinding = Finding & { reason?: string | null };

const MAX_LISTED = 60;

/**
 * The findings as the agent reads them, one line each: the page and line, the identifier and what the pull request
 * did to it, the code line that did it, the model's reason, and the page's text. Pure.
 */
export function findingsText(findings: KeptFinding[]): string {
  const lines = findings.slice(0, MAX_LISTED).map((f) => {
    const change = f.change === 'renamed' && f.renamedTo ? `renamed to \`${f.renamedTo}\`` : f.change;
    const reason = f.reason ? ` — ${f.reason}` : '';
    return `- ${f.page}:${f.line}: \`${f.identifier}\` (${f.kind}) ${change} at ${f.codeFile}:${f.codeLine}${reason}\n  > ${f.lineText.trim().slice(0, 300)}`;
  });
  if (findings.length > MAX_LISTED) lines.push(`- … and ${findings.length - MAX_LISTED} more findings`);
  return lines.join('\n');
}

/**
 * What the automation's newest finished review of the pull request found (the check run's findings, the ones the
 * model rejected left out); null when it has not reviewed the pull request (or kept nothing for a draft).
 */
export async function reviewFindings(params: {
  db: Db;
  projectId: string;
  automationId: string;
  repository: string;
  number: number;
}): Promise<DraftFindings | null> {
  const review = await latestReview(params);
  if (!review?.findings) return null;
  const kept = (JSON.parse(review.findings) as { findings?: KeptFinding[] }).findings ?? [];
  return { text: findingsText(kept), pages: [...new Set(kept.map((f) => f.page))] };
}
