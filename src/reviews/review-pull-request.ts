import { statusOf, type InstallationOctokit } from '../github/github-app.js';
import {
  isPullRequestAutomation,
  matchPullRequest,
  type PullRequestAutomation,
} from '../automations/match-pull-request.js';
import { findProject, type Project } from '../projects/projects.js';
import { randomId } from '../ids.js';
import { startHeartbeat } from '../db/lease-queue.js';
import { claimReview, finishReview, recordCheckRun, renewReview } from './review-store.js';
import { readPullRequestFiles, type PullRequestFiles } from './read-pull-request-files.js';
import { brokenAutomations, reportBrokenAutomation } from './report-broken-automations.js';
import { CHECK_NAME, completeCheckRun, openCheckRun } from './check-run.js';
import { reviewCommentBody, upsertReviewComment } from './review-comment.js';
import { assess, cannotReview, type DocsSnapshot, type Timings } from './assess-impact.js';
import { MAX_FILES, MAX_PATCH_BYTES, type ReviewDeps, type SourcePullRequest } from './review-deps.js';

export type { ReviewDeps, SourcePullRequest } from './review-deps.js';

/** Another process holds the review of this commit: the delivery is retried, and then finds it done. */
export class ReviewInProgress extends Error {}

/**
 * The `Scribe docs` check of a source pull request, in named steps: find the automations that follow it → read its
 * files once → for each automation, claim the review of this head commit (one per commit and automation, across
 * redeliveries and replicas) → open the check run → read the docs pages → find the impact → judge it (when a model is
 * configured) → complete the check (unless a newer push superseded this commit) → keep the comment. A docs
 * repository that cannot be read concludes the check neutral with the reason. Returns one line per automation.
 */
export async function reviewPullRequest(deps: ReviewDeps, pr: SourcePullRequest): Promise<string[]> {
  const configs = await deps.configs();
  const target = { repository: pr.repository, baseBranch: pr.baseRef, defaultBranch: pr.defaultBranch };
  const candidates = matchPullRequest(configs, { ...target, changedPaths: null });
  const broken = brokenAutomations(configs, pr.repository);
  if (!candidates.length && !broken.length) return ['no automation reviews this pull request'];
  const octokit = await deps.github.octokit(pr.installationId);
  const gone = await movedOn(octokit, pr);
  if (gone) return [`not reviewed: ${gone}`];
  // several automations on one repository get a check each, told apart by name
  const named =
    broken.length +
    configs.flatMap((c) =>
      c.automations.filter(
        (a) => isPullRequestAutomation(a) && a.on.repository.toLowerCase() === pr.repository.toLowerCase(),
      ),
    ).length;
  const nameOf = (automationId: string) => (named > 1 ? `${CHECK_NAME} (${automationId})` : CHECK_NAME);
  const said: string[] = [];
  for (const b of broken)
    said.push(
      await reportBrokenAutomation({
        ...deps,
        octokit,
        repository: pr.repository,
        number: pr.number,
        headSha: pr.headSha,
        broken: b,
        name: nameOf(b.automation),
      }),
    );
  if (!candidates.length) return said;
  const started = performance.now();
  const files = await readPullRequestFiles({
    octokit,
    repository: pr.repository,
    number: pr.number,
    baseSha: pr.baseSha,
    changedFiles: pr.changedFiles,
    maxFiles: MAX_FILES,
    maxBytes: MAX_PATCH_BYTES,
  });
  const timings: Timings = { filesMs: performance.now() - started };
  const changedPaths = files.files.flatMap((f) => [f.filename, ...(f.previousFilename ? [f.previousFilename] : [])]);
  const matching = matchPullRequest(configs, { ...target, changedPaths: files.unlisted ? null : changedPaths });
  if (!matching.length)
    return [...said, 'no changed file matches the paths of the automations that follow this repository'];
  const pages = new Map<string, Promise<DocsSnapshot>>();
  for (const { projectId, automation } of matching) {
    const project = await findProject(deps.db, projectId);
    if (!project || project.disabledAt) continue;
    const name = nameOf(automation.id);
    said.push(await reviewOne({ deps, octokit, pr, project, automation, files, name, pages, timings }));
  }
  return said;
}

/** Why this head commit no longer needs a review (the pull request was closed, or a newer push came); null if it does. */
async function movedOn(octokit: InstallationOctokit, pr: SourcePullRequest): Promise<string | null> {
  const [owner, repo] = pr.repository.split('/');
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr.number });
  if (data.state !== 'open') return 'the pull request was closed';
  return data.head.sha === pr.headSha ? null : `superseded by a newer push (${data.head.sha.slice(0, 7)})`;
}

async function reviewOne(params: {
  deps: ReviewDeps;
  octokit: InstallationOctokit;
  pr: SourcePullRequest;
  project: Project;
  automation: PullRequestAutomation;
  files: PullRequestFiles;
  name: string;
  pages: Map<string, Promise<DocsSnapshot>>;
  timings: Timings;
}): Promise<string> {
  const { deps, octokit, pr, project, automation } = params;
  const key = { projectId: project.id, automationId: automation.id, repository: pr.repository, headSha: pr.headSha };
  // each attempt owns its claim: two deliveries of one event in the same process must not share it
  const lease = { db: deps.db, clock: deps.clock, owner: randomId('rvw'), leaseMs: deps.leaseMs };
  const claim = await claimReview({ ...lease, key, number: pr.number });
  if ('done' in claim) return `${automation.id}: ${pr.headSha.slice(0, 7)} already reviewed (${claim.done.conclusion})`;
  if ('busy' in claim)
    throw new ReviewInProgress(
      `${automation.id}: the review of ${pr.headSha.slice(0, 7)} is running in another process`,
    );
  const review = claim.claimed;
  const heartbeat = startHeartbeat({
    everyMs: deps.heartbeatMs,
    renew: () => renewReview({ ...lease, id: review.id }),
    failed: (err) => deps.logger.warn({ err, review: review.id }, 'could not renew a docs review lease'),
  });
  try {
    const checkRunId = await openCheckRun({
      octokit,
      repository: pr.repository,
      headSha: pr.headSha,
      name: params.name,
      reviewId: review.id,
      known: review.checkRunId,
      startedAt: deps.clock(),
    });
    if (!review.checkRunId) await recordCheckRun({ db: deps.db, clock: deps.clock, id: review.id, checkRunId });
    let outcome = await assess(params).catch((err: unknown) => cannotReview(deps, project, err));
    const gone = await movedOn(octokit, pr);
    const current = gone === null;
    if (gone)
      outcome = {
        conclusion: 'skipped',
        title: gone.startsWith('superseded') ? 'Superseded by a newer push' : 'The pull request was closed',
        summary: gone.startsWith('superseded')
          ? `The pull request moved on from ${pr.headSha.slice(0, 7)}; the check of its new head commit says what the docs need.`
          : 'The pull request was closed while its docs review ran; reopening it reviews it again.',
        pageCount: 0,
        findings: null,
      };
    const complete = () =>
      completeCheckRun({
        octokit,
        repository: pr.repository,
        checkRunId,
        ...outcome,
        offerDraft: outcome.pageCount > 0,
        completedAt: deps.clock(),
      });
    await complete().catch(async (err: unknown) => {
      // GitHub refusing the output would leave the check running for good: it is completed saying why instead
      const status = statusOf(err);
      if (status === undefined || status < 400 || status >= 500 || status === 429) throw err;
      outcome = {
        conclusion: 'neutral',
        title: 'Docs review could not run',
        summary: `GitHub refused the review's result (${status}: ${(err as Error).message.split('\n')[0].slice(0, 300)}).`,
        pageCount: 0,
        findings: null,
      };
      await complete();
    });
    let commented = '';
    // the comment speaks of pages found (or of none left); a review that could not run is said on the check only
    if (current && automation.review.comment && (outcome.pageCount > 0 || outcome.conclusion === 'success'))
      commented = `; ${await upsertReviewComment({
        db: deps.db,
        clock: deps.clock,
        octokit,
        projectId: project.id,
        automationId: automation.id,
        repository: pr.repository,
        number: pr.number,
        headSha: pr.headSha,
        resolved: outcome.pageCount === 0 && outcome.conclusion === 'success',
        body: reviewCommentBody({
          projectId: project.id,
          automationId: automation.id,
          headSha: pr.headSha,
          title: outcome.title,
          summary: outcome.summary,
          resolved: outcome.pageCount === 0 && outcome.conclusion === 'success',
          checkUrl: `${deps.github.repositoryUrl(pr.repository)}/runs/${checkRunId}`,
        }),
      }).catch((err: unknown) => {
        // the check already says it all; the comment follows at the next push
        deps.logger.warn(
          { err, repository: pr.repository, number: pr.number },
          'could not write the docs review comment',
        );
        return `comment not written (${(err as Error)?.message?.split('\n')[0].slice(0, 200)})`;
      })}`;
    await finishReview({
      ...lease,
      id: review.id,
      status: current ? 'completed' : 'superseded',
      conclusion: outcome.conclusion,
      title: outcome.title,
      pageCount: outcome.pageCount,
      findings: outcome.findings,
    });
    deps.logger.info(
      {
        repository: pr.repository,
        number: pr.number,
        headSha: pr.headSha,
        automation: automation.id,
        conclusion: outcome.conclusion,
        pages: outcome.pageCount,
        timings: params.timings,
      },
      'docs review done',
    );
    return `${automation.id}: check ${checkRunId} ${outcome.conclusion}: ${outcome.title}${commented}`;
  } finally {
    heartbeat.stop();
  }
}
