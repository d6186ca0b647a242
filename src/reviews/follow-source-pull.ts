import type { InstallationOctokit } from '../github/github-app.js';
import { findProject } from '../projects/projects.js';
import type { AutomationDeps } from '../automations/automation-deps.js';
import { listConfigs } from '../automations/config-store.js';
import { startRun } from '../automations/start-run.js';
import { draftsOfPull, updateDraft, type DocsDraft, type SourceState } from './docs-draft-store.js';
import { followUpPrompt, draftSummary } from './draft-prompt.js';
import { reviewFindings } from './draft-findings.js';
import { fetchPullChange, type SourcePull } from './source-pull.js';
import { bringDraftTo } from './bring-draft-to.js';

/** What following a pull request that has no docs draft says. */
export const NO_DRAFT = 'no docs draft follows this pull request';

/** A pull_request delivery about a source pull request, as the drafts follow it. */
export interface SourcePullEvent {
  action: 'synchronize' | 'closed' | 'reopened';
  pull: SourcePull;
  /** synchronize: the head before the push */
  before?: string;
  /** authenticated as the source repository's installation */
  octokit: InstallationOctokit;
}

/**
 * The drafts of a source pull request follow it: new commits become a follow-up message on the draft's job (batched
 * into its next run as push runs are, one run per new head); a merge takes the docs pull request out of draft and asks
 * the source pull request's people for a review; a close without merge closes it, saying why; a reopen reopens it.
 */
export async function followSourcePull(deps: AutomationDeps, event: SourcePullEvent): Promise<string> {
  const { db, clock } = deps;
  const drafts = (await draftsOfPull(db, event.pull.repository, event.pull.number)).filter((d) => d.jobId);
  if (!drafts.length) return NO_DRAFT;
  const said: string[] = [];
  for (const draft of drafts) {
    if (event.action === 'synchronize') {
      said.push(await followCommits(deps, draft, event));
      continue;
    }
    const state: SourceState = event.action === 'reopened' ? 'open' : event.pull.merged ? 'merged' : 'closed';
    // Unchanged on a retried delivery, so its comments (marked by this change's time) are not posted twice.
    const updated =
      draft.sourceState === state
        ? draft
        : await updateDraft({ db, clock, id: draft.id, data: { sourceState: state } });
    said.push(
      `${draft.automationId}: ${await bringDraftTo(deps, { draft: updated, pull: event.pull, octokit: event.octokit })}`,
    );
  }
  return said.join('; ');
}

async function followCommits(deps: AutomationDeps, draft: DocsDraft, event: SourcePullEvent): Promise<string> {
  const { db, clock, github } = deps;
  const { pull } = event;
  if (draft.sourceState !== 'open') return `${draft.automationId}: the draft is ${draft.sourceState}`;
  const project = await findProject(db, draft.projectId);
  const automation = (await listConfigs(db))
    .find((c) => c.projectId === draft.projectId)
    ?.automations.find((a) => a.id === draft.automationId);
  if (!project || project.disabledAt || !automation) return `${draft.automationId}: the automation is no longer loaded`;
  // The review of the new head ran first (the same delivery's review handler), so its findings are the newest.
  const findings = await reviewFindings({
    db,
    projectId: draft.projectId,
    automationId: draft.automationId,
    repository: pull.repository,
    number: pull.number,
  });
  const pages = findings?.pages.length ? findings.pages : draft.pages;
  if (findings?.pages.length) await updateDraft({ db, clock, id: draft.id, data: { pages } });
  const change = await fetchPullChange({
    octokit: event.octokit,
    pull,
    base: event.before ?? pull.baseSha,
    head: pull.headSha,
    webBase: github.repositoryUrl('').replace(/\/$/, ''),
  });
  const run = await startRun(deps, {
    project,
    automation,
    request: {
      trigger: 'pull_request',
      dedupeKey: `pull_request:${pull.repository}#${pull.number}:${pull.headSha}`,
      repository: pull.repository,
      beforeSha: event.before,
      afterSha: pull.headSha,
      pullNumber: pull.number,
      change: followUpPrompt({ pull, findings, change }),
      summary: draftSummary(pull, pages),
      retried: true,
      job: { extend: draft.jobId! },
    },
  });
  return run
    ? `${draft.automationId}: follow-up run ${run.id} ${run.status}${run.jobId ? ` (job ${run.jobId})` : ''}`
    : `${draft.automationId}: this head already started a run`;
}
