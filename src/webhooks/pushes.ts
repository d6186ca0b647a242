import { CONFIG_PATH } from '../automations/parse-config.js';
import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/**
 * push: reloads a docs project's automations when its default branch moves, and starts the automations that follow
 * the pushed repository and branch. A push by Scribe's own bot starts nothing, so an automation never feeds itself.
 * Redeliveries never get here: the delivery id was recorded first.
 */
export async function handlePush(deps: WebhookDeps, delivery: Delivery<'push'>): Promise<HandlerResult> {
  const { payload } = delivery;
  if (!deps.automations && !deps.reviews) return ignored('automations need agent jobs, which are not configured');
  const bot = `${await deps.appSlug()}[bot]`;
  if (payload.sender?.login === bot || payload.pusher?.name === bot) return ignored('pushed by Scribe itself');
  if (!payload.ref.startsWith('refs/heads/')) return ignored('not a branch');
  if (payload.deleted || /^0+$/.test(payload.after)) return ignored('branch deleted');
  const push = {
    repository: payload.repository.full_name,
    branch: payload.ref.slice('refs/heads/'.length),
    defaultBranch: payload.repository.default_branch ?? payload.repository.master_branch ?? 'main',
    before: payload.before,
    after: payload.after,
    configCommit: lastCommitTouching(payload.commits ?? [], CONFIG_PATH),
  };
  if (deps.automations) return done(await deps.automations.onPush(push));
  // no model, so no agent runs: the config is still reloaded, for the docs reviews of source pull requests
  const reloaded = await deps.reviews!.reloadConfigs(push);
  return reloaded.length ? done(reloaded.join('; ')) : ignored('automations need agent jobs, which are not configured');
}

/** The push's last commit that added, changed or removed `file` (GitHub lists up to 2,048 commits per push). */
function lastCommitTouching(
  commits: { id: string; added?: string[]; modified?: string[]; removed?: string[] }[],
  file: string,
): string | undefined {
  return commits.findLast((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(file))?.id;
}
