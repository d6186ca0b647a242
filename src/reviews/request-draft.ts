import type { InstallationOctokit } from '../github/github-app.js';
import { findProject } from '../projects/projects.js';
import type { AutomationDeps } from '../automations/automation-deps.js';
import { pullRequestAutomations } from '../automations/match-pull-request.js';
import { startRun } from '../automations/start-run.js';
import { findRunByKey } from '../automations/run-store.js';
import { getJob } from '../jobs/job-store.js';
import { claimDraft, updateDraft } from './docs-draft-store.js';
import { draftPrompt, draftSummary, pagesInFindings, type DraftFindings } from './draft-prompt.js';
import { fetchPullChange, fetchSourcePull } from './source-pull.js';
import { findDocsCheckRun } from './docs-check-run.js';
import { findReviewById } from './review-store.js';
import { reviewFindings } from './draft-findings.js';

export interface DraftRequest {
  /** the source repository and pull request */
  repository: string;
  number: number;
  /** who asked; the caller checked their write access to the source repository */
  requester: string;
  /** authenticated as the source repository's installation */
  octokit: InstallationOctokit;
  /** the findings of the check run whose action was pressed; read from the head commit's check run when absent */
  findings?: DraftFindings | null;
  /** the external id of the check run whose action was pressed (its review's id): only that review's automation drafts */
  checkRunExternalId?: string | null;
}

/** What the request did, for the delivery's outcome, and the comment that tells the requester (null: none). */
export interface DraftAnswer {
  outcome: string;
  reply: string | null;
}

/** The run key of a draft's first run: one per source pull request and automation, like the draft itself. */
export const draftRunKey = (repository: string, number: number) => `pull_request:${repository}#${number}:draft`;

/**
 * A docs draft for a source pull request, once per automation that follows it: an ordinary agent job on the docs
 * repository whose pull request opens as a draft, told the automation's prompt, the pull request, the review's
 * findings and the diff, with the source at the pull request's head as its read-only `source:` tree. A second
 * request (a redelivery, another replica, a second click) finds the draft and starts nothing.
 */
export async function requestDraft(deps: AutomationDeps, request: DraftRequest): Promise<DraftAnswer> {
  const { db, clock, github } = deps;
  const pull = await fetchSourcePull(request);
  if (pull.state !== 'open')
    return {
      outcome: 'the pull request is closed',
      reply: `@${request.requester} This pull request is closed, so Scribe drafts no docs update for it.`,
    };
  const pressedOn = request.checkRunExternalId ? await findReviewById(db, request.checkRunExternalId) : null;
  const matching = (
    await pullRequestAutomations(db, {
      repository: pull.repository,
      baseBranch: pull.baseRef,
      defaultBranch: pull.defaultBranch,
      changedPaths: null,
    })
  ).filter((m) => !pressedOn || (m.projectId === pressedOn.projectId && m.automation.id === pressedOn.automationId));
  if (!matching.length)
    return {
      outcome: 'no automation reviews this pull request',
      reply: `@${request.requester} No docs repository follows pull requests into ${pull.repository}:${pull.baseRef}, so there is nothing to draft.`,
    };
  // Without a review of its own (none stored yet), an automation's draft reads the check run that was pressed, or the
  // head commit's `Scribe docs` check run.
  let fallback: DraftFindings | null | undefined = request.findings;
  const findingsOf = async (projectId: string, automationId: string): Promise<DraftFindings | null> => {
    const reviewed = await reviewFindings({
      db,
      projectId,
      automationId,
      repository: pull.repository,
      number: pull.number,
    });
    if (reviewed) return reviewed;
    if (fallback === undefined) {
      const run = await findDocsCheckRun({ octokit: request.octokit, repository: pull.repository, sha: pull.headSha });
      const text = run ? [run.summary, run.text].filter(Boolean).join('\n\n') : '';
      fallback = text ? { text, pages: pagesInFindings(text) } : null;
    }
    return fallback;
  };
  const change = await fetchPullChange({
    octokit: request.octokit,
    pull,
    base: pull.baseSha,
    head: pull.headSha,
    webBase: github.repositoryUrl('').replace(/\/$/, ''),
  });
  const said: string[] = [];
  const replies: string[] = [];
  for (const { projectId, automation } of matching) {
    const project = await findProject(db, projectId);
    if (!project || project.disabledAt) continue;
    const findings = await findingsOf(projectId, automation.id);
    const pages = findings?.pages ?? [];
    const key = { projectId, automationId: automation.id, repository: pull.repository, number: pull.number };
    const { draft } = await claimDraft({ db, clock, key, requestedBy: request.requester, pages });
    const existing = async (jobId: string) => {
      const job = await getJob(db, projectId, jobId).catch(() => null);
      said.push(`${automation.id}: draft exists (job ${jobId})`);
      replies.push(
        job?.prLink
          ? `The docs draft for ${project.repository} is ${job.prLink}; it follows this pull request.`
          : job?.status === 'failed'
            ? `The docs draft for ${project.repository} failed (job \`${jobId}\`: ${job.error ?? 'no reason recorded'}); new commits on this pull request try it again.`
            : job?.status === 'archived'
              ? `The docs draft for ${project.repository} (job \`${jobId}\`) was archived; this pull request gets no other.`
              : `The docs draft for ${project.repository} is being written (job \`${jobId}\`).`,
      );
    };
    if (draft.jobId) {
      await existing(draft.jobId);
      continue;
    }
    const dedupeKey = draftRunKey(pull.repository, pull.number);
    const started = await startRun(deps, {
      project,
      automation,
      request: {
        trigger: 'pull_request',
        dedupeKey,
        repository: pull.repository,
        afterSha: pull.headSha,
        pullNumber: pull.number,
        change: draftPrompt({ pull, findings, change }),
        summary: draftSummary(pull, pages),
        // a request comes from a webhook delivery, which is retried until it finishes
        retried: true,
        job: { new: { draft: true, branchFrom: `docs for ${pull.repository} ${pull.number}` } },
      },
    });
    // null: another request (a replica, an earlier attempt) started the draft's run; its job is the draft's
    const run = started ?? (await findRunByKey(db, { projectId, automationId: automation.id, dedupeKey }));
    if (!started && run?.jobId) {
      await updateDraft({ db, clock, id: draft.id, data: { jobId: run.jobId } });
      await existing(run.jobId);
      continue;
    }
    if (!run?.jobId) {
      said.push(`${automation.id}: ${run ? `run ${run.id} ${run.status}: ${run.reason ?? ''}` : 'no run'}`);
      replies.push(`Scribe could not start the docs draft for ${project.repository}: ${run?.reason ?? 'no run'}.`);
      continue;
    }
    await updateDraft({ db, clock, id: draft.id, data: { jobId: run.jobId } });
    said.push(`${automation.id}: draft run ${run.id} (job ${run.jobId})`);
    replies.push(
      `Scribe is drafting the docs update on ${project.repository} (job \`${run.jobId}\`); its draft pull request will follow this one.`,
    );
  }
  return {
    outcome: said.join('; ') || 'every matching project is disabled',
    reply: replies.length ? `@${request.requester} ${replies.join(' ')}` : null,
  };
}
