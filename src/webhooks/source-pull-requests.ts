import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/** The pull_request actions that put a new head commit (or a pull request back) in front of reviewers. */
export const REVIEWED_ACTIONS = new Set(['opened', 'synchronize', 'reopened', 'ready_for_review']);

/**
 * pull_request opened, synchronize, reopened, ready_for_review on a source repository: the `Scribe docs` check of
 * its head commit (src/reviews). A pull request from a fork is reviewed too: its diff is read through the API. One
 * Scribe's own bot opened is never reviewed, so Scribe never checks its own docs pull requests.
 */
export async function reviewSourcePullRequest(
  deps: WebhookDeps,
  delivery: Delivery<'pull_request'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  if (!deps.reviews) return ignored('docs reviews need the GitHub App');
  const pr = payload.pull_request;
  if (pr.user?.login === `${await deps.appSlug()}[bot]`) return ignored('opened by Scribe itself: not reviewed');
  if (pr.state !== 'open') return ignored('the pull request is not open');
  const installationId = (payload as { installation?: { id?: unknown } }).installation?.id;
  if (typeof installationId !== 'number') return ignored('the delivery names no installation');
  const outcome = await deps.reviews.onPullRequest({
    repository: payload.repository.full_name,
    installationId,
    number: pr.number,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    baseSha: pr.base.sha,
    defaultBranch: payload.repository.default_branch ?? 'main',
    changedFiles: typeof pr.changed_files === 'number' ? pr.changed_files : 0,
  });
  return done(outcome);
}
