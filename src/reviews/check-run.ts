import type { InstallationOctokit } from '../github/github-app.js';

export const CHECK_NAME = 'Scribe docs';
/** The requested action a found page offers; src/reviews' draft side answers its check_run.requested_action. */
export const DRAFT_ACTION = {
  label: 'Draft docs update',
  description: 'Open a draft docs pull request',
  identifier: 'draft-docs',
} as const;
/** The Checks API refuses an output summary over 65,535 characters. */
export const MAX_SUMMARY = 65_535;

export type CheckConclusion = 'success' | 'neutral' | 'failure' | 'skipped';

/**
 * The review's check run on the head commit: the one whose external_id is the review's id when a process that died
 * mid-review already created it, else a new one, in progress. Returns its id as text (GitHub's ids pass 2^31).
 */
export async function openCheckRun(params: {
  octokit: InstallationOctokit;
  repository: string;
  headSha: string;
  name: string;
  reviewId: string;
  known: string | null;
  startedAt: Date;
}): Promise<string> {
  if (params.known) return params.known;
  const [owner, repo] = params.repository.split('/');
  const { octokit } = params;
  const listed = await octokit.paginate(octokit.rest.checks.listForRef, {
    owner,
    repo,
    ref: params.headSha,
    check_name: params.name,
    filter: 'all',
    per_page: 100,
  });
  const mine = listed.find((run) => run.external_id === params.reviewId);
  if (mine) return String(mine.id);
  const { data } = await octokit.rest.checks.create({
    owner,
    repo,
    name: params.name,
    head_sha: params.headSha,
    status: 'in_progress',
    external_id: params.reviewId,
    started_at: params.startedAt.toISOString(),
    output: { title: 'Looking for docs pages this change makes stale', summary: 'The review is running.' },
  });
  return String(data.id);
}

/** Completes the check run with the review's outcome; the draft action is offered when pages were found. */
export async function completeCheckRun(params: {
  octokit: InstallationOctokit;
  repository: string;
  checkRunId: string;
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  offerDraft: boolean;
  completedAt: Date;
}): Promise<void> {
  const [owner, repo] = params.repository.split('/');
  await params.octokit.rest.checks.update({
    owner,
    repo,
    check_run_id: Number(params.checkRunId),
    status: 'completed',
    conclusion: params.conclusion,
    completed_at: params.completedAt.toISOString(),
    output: { title: params.title.slice(0, 255), summary: capSummary(params.summary) },
    actions: params.offerDraft ? [{ ...DRAFT_ACTION }] : [],
  });
}

/** A summary within the Checks API's limit, saying that it was cut. */
export function capSummary(summary: string): string {
  if (summary.length <= MAX_SUMMARY) return summary;
  const note = '\n\n… (cut at the Checks API limit of 65,535 characters)';
  const cut = summary.slice(0, MAX_SUMMARY - note.length);
  return `${cut.slice(0, Math.max(cut.lastIndexOf('\n'), 0) || cut.length)}${note}`;
}
