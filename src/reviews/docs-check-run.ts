import { statusOf, type InstallationOctokit } from '../github/github-app.js';

import { CHECK_NAME, DRAFT_ACTION as DRAFT_BUTTON, MAX_SUMMARY } from './check-run.js';

/** The check run the review reports on every matching source pull request's head commit. */
export const DOCS_CHECK_NAME = CHECK_NAME;
/** Whether a check run is the review's: `Scribe docs`, or `Scribe docs (<automation id>)` when several automations review the repository. */
export const isDocsCheckName = (name: string) => name === CHECK_NAME || name.startsWith(`${CHECK_NAME} (`);
/** The requested action on it that asks for a docs draft. */
export const DRAFT_ACTION = DRAFT_BUTTON.identifier;

export interface DocsCheckRun {
  id: number;
  title: string | null;
  summary: string;
  text: string;
}

/** The newest `Scribe docs` check run on a commit; null when there is none (the review has not reported yet). */
export async function findDocsCheckRun(params: {
  octokit: InstallationOctokit;
  repository: string;
  sha: string;
}): Promise<DocsCheckRun | null> {
  const [owner, repo] = params.repository.split('/');
  try {
    const { data } = await params.octokit.rest.checks.listForRef({
      owner,
      repo,
      ref: params.sha,
      check_name: DOCS_CHECK_NAME,
      filter: 'latest',
    });
    const run = data.check_runs[0];
    return run
      ? { id: run.id, title: run.output.title, summary: run.output.summary ?? '', text: run.output.text ?? '' }
      : null;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

/** A check run by its id (the review records it); null when GitHub no longer has it. */
export async function readCheckRun(params: {
  octokit: InstallationOctokit;
  repository: string;
  id: string;
}): Promise<DocsCheckRun | null> {
  const [owner, repo] = params.repository.split('/');
  try {
    const { data } = await params.octokit.rest.checks.get({ owner, repo, check_run_id: Number(params.id) });
    return { id: data.id, title: data.output.title, summary: data.output.summary ?? '', text: data.output.text ?? '' };
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

/** The check run's summary with a line linking the docs draft, once; pure. Null when it already links it. */
export function summaryWithDraft(summary: string, prLink: string): string | null {
  if (summary.includes(prLink)) return null;
  const line = `\n\n**Docs draft:** [${prLink}](${prLink}), kept in step with this pull request.`;
  return `${summary.slice(0, MAX_SUMMARY - line.length)}${line}`;
}

/** Adds the docs draft's link to the check run's summary (title and the rest of the output kept). */
export async function linkDraftOnCheckRun(params: {
  octokit: InstallationOctokit;
  repository: string;
  checkRun: DocsCheckRun;
  prLink: string;
}): Promise<boolean> {
  const { checkRun } = params;
  const summary = summaryWithDraft(checkRun.summary, params.prLink);
  if (summary === null) return false;
  const [owner, repo] = params.repository.split('/');
  await params.octokit.rest.checks.update({
    owner,
    repo,
    check_run_id: checkRun.id,
    output: { title: checkRun.title ?? DOCS_CHECK_NAME, summary, ...(checkRun.text ? { text: checkRun.text } : {}) },
  });
  return true;
}
