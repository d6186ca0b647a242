import { appendEvent, findJobByPullRequest } from '../jobs/job-store.js';
import { recordPullRequestState, type PullRequestState } from '../github/pull-request-state.js';
import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';
import { REVIEWED_ACTIONS, reviewSourcePullRequest } from './source-pull-requests.js';
import { recordSourceMerge } from '../reviews/source-merges.js';

/**
 * pull_request: a Scribe pull request closed or reopened is recorded on its job; any other pull request opened,
 * pushed to, reopened or marked ready gets its docs review (source-pull-requests.ts).
 */
export async function handlePullRequest(deps: WebhookDeps, delivery: Delivery<'pull_request'>): Promise<HandlerResult> {
  const { action } = delivery.payload;
  if (action === 'closed' || action === 'reopened') {
    const recorded = await recordOnJob(deps, delivery);
    if (recorded.status === 'done') return recorded;
    if (action === 'closed') return recordMerge(deps, delivery, recorded);
  }
  if (REVIEWED_ACTIONS.has(action)) return reviewSourcePullRequest(deps, delivery);
  return ignored(`pull_request.${action} needs nothing`);
}

/**
 * pull_request.closed (merged or not) and reopened on a Scribe pull request: recorded on the job, as an event
 * and as its `pr`. Closing without merge does not archive the job: a follow-up may still reopen the work.
 */
async function recordOnJob(deps: WebhookDeps, delivery: Delivery<'pull_request'>): Promise<HandlerResult> {
  const { payload } = delivery;
  if (payload.action !== 'closed' && payload.action !== 'reopened')
    return ignored(`pull_request.${payload.action} needs nothing`);
  const pr = payload.pull_request;
  const repository = payload.repository.full_name;
  // A branch name only identifies the job for a pull request from the repository itself, never from a fork.
  const sameRepository = pr.head.repo?.full_name === repository;
  const job = await findJobByPullRequest({
    db: deps.db,
    repository,
    number: pr.number,
    branch: sameRepository ? pr.head.ref : undefined,
  });
  if (!job) return ignored('not a Scribe pull request');
  const state: PullRequestState =
    payload.action === 'closed'
      ? { state: 'closed', merged: pr.merged === true, mergedAt: pr.merged_at ?? null }
      : { state: 'open', merged: false, mergedAt: null };
  await recordPullRequestState({ db: deps.db, clock: deps.clock, jobId: job.id, repository, number: pr.number, state });
  await appendEvent({
    db: deps.db,
    clock: deps.clock,
    jobId: job.id,
    type: `pull_request_${payload.action}`,
    data: { number: pr.number, pr: state },
  });
  if (payload.action === 'closed')
    await deps.onJobPullRequestClosed?.({
      jobId: job.id,
      projectId: job.projectId,
      repository,
      number: pr.number,
      merged: state.merged,
      mergedAt: state.mergedAt,
    });
  return done(`job ${job.id}: pull request ${state.merged ? 'merged' : state.state}`);
}

/**
 * A source pull request merged: kept when a docs review of it is on record, so the pages it named count as stale
 * until a docs pull request changes them. Kept quietly: the delivery's outcome stays the docs drafts' (which follow
 * the same event), or says nothing needed doing.
 */
async function recordMerge(
  deps: WebhookDeps,
  delivery: Delivery<'pull_request'>,
  otherwise: HandlerResult,
): Promise<HandlerResult> {
  const pr = delivery.payload.pull_request;
  if (!pr.merged) return otherwise;
  await recordSourceMerge(deps.db, {
    repository: delivery.payload.repository.full_name,
    number: pr.number,
    mergedAt: pr.merged_at ? new Date(pr.merged_at) : deps.clock(),
  });
  return otherwise;
}
