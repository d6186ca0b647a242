import { toSourcePull } from '../reviews/source-pull.js';
import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/**
 * pull_request.synchronize, closed and reopened on a source pull request: its docs drafts follow it (new commits,
 * merge, close, reopen; see reviews/follow-source-pull.ts). A pull request without a draft needs nothing.
 */
export async function handleSourcePullForDrafts(
  deps: WebhookDeps,
  delivery: Delivery<'pull_request'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  const action = payload.action;
  if (action !== 'synchronize' && action !== 'closed' && action !== 'reopened')
    return ignored(`pull_request.${action} moves no docs draft`);
  if (!deps.docsDrafts) return ignored('docs drafts need agent jobs, which are not configured');
  const outcome = await deps.docsDrafts.follow({
    action,
    pull: toSourcePull(payload.repository.full_name, payload.pull_request),
    before: action === 'synchronize' ? (payload as { before?: string }).before : undefined,
    octokit: delivery.octokit,
  });
  return outcome === 'no docs draft follows this pull request' ? ignored(outcome) : done(outcome);
}
