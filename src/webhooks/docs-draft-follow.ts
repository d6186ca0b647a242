import { toSourcePull } from '../reviews/source-pull.js';
import { NO_DRAFT } from '../reviews/follow-source-pull.js';
import { done, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/**
 * pull_request.synchronize, closed and reopened on a source pull request: its docs drafts follow it (new commits,
 * merge, close, reopen; see reviews/follow-source-pull.ts). Null (none of its business: the delivery's outcome is the
 * other handlers') for other actions and for a pull request without a draft.
 */
export async function handleSourcePullForDrafts(
  deps: WebhookDeps,
  delivery: Delivery<'pull_request'>,
): Promise<HandlerResult | null> {
  const { payload } = delivery;
  const action = payload.action;
  if (action !== 'synchronize' && action !== 'closed' && action !== 'reopened') return null;
  if (!deps.docsDrafts) return null;
  const outcome = await deps.docsDrafts.follow({
    action,
    pull: toSourcePull(payload.repository.full_name, payload.pull_request),
    before: action === 'synchronize' ? (payload as { before?: string }).before : undefined,
    octokit: delivery.octokit,
  });
  return outcome === NO_DRAFT ? null : done(outcome);
}
