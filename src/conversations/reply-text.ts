/**
 * Comments Scribe posts on GitHub, as pure functions of what happened, so their wording is tested without a network.
 */

export interface RunReport {
  kind: 'follow_up' | 'command';
  author: string | null;
  jobId: string;
  jobUrl: string | null;
  /** set when the run ended with a result */
  finished?: { sha: string | null; branch: string; prLink: string | null; summary: string | null };
  /** set when the run failed: the job's error sentence */
  error?: string;
}

function jobRef(jobId: string, jobUrl: string | null): string {
  return jobUrl ? `[\`${jobId}\`](${jobUrl})` : `\`${jobId}\``;
}

function quoteSummary(summary: string | null): string {
  const text = summary?.trim();
  return text ? `\n\n${text}` : '';
}

/** The reply when the run carrying out a comment's instruction ends. */
export function runReplyText(report: RunReport): string {
  const to = report.author ? `@${report.author} ` : '';
  if (report.error !== undefined) {
    return `${to}I could not finish this (Scribe job ${jobRef(report.jobId, report.jobUrl)}): ${report.error}`;
  }
  const run = report.finished!;
  if (!run.sha) {
    const where = report.kind === 'command' && !run.prLink ? ' No pull request was opened.' : '';
    return `${to}I changed nothing.${where} Here is why:${quoteSummary(run.summary) || '\n\nThe agent gave no reason.'}`;
  }
  const short = run.sha.slice(0, 7);
  if (report.kind === 'command') {
    return `${to}I opened ${run.prLink ?? `branch \`${run.branch}\``} (commit ${short}).${quoteSummary(run.summary)}`;
  }
  return `${to}I pushed ${short} to \`${run.branch}\`.${quoteSummary(run.summary)}`;
}

/** The reply to an issue command once its job is queued. */
export function commandAcceptedText(params: { author: string; jobId: string; jobUrl: string | null }): string {
  return `@${params.author} On it: Scribe job ${jobRef(params.jobId, params.jobUrl)} is queued. I will reply here with the pull request when it is done.`;
}

/** The comment on a still-open pull request whose job was archived. */
export function archivedText(params: { jobId: string; jobUrl: string | null }): string {
  return `Scribe job ${jobRef(params.jobId, params.jobUrl)} was archived: Scribe will not push to this branch again. Merge or close this pull request as it is.`;
}

/** The prompt of a job created by an issue command: the instruction, then the issue it was given on. */
export function issueCommandPrompt(params: {
  instruction: string;
  repository: string;
  number: number;
  title: string;
  body: string;
}): string {
  const body = params.body.trim() ? `\n\n${params.body.trim()}` : '';
  return `${params.instruction}\n\nThis request was made on issue #${params.number} of ${params.repository}:\n\n### ${params.title.trim()}${body}`;
}
