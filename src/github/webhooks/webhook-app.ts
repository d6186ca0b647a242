import type { ApplicationFunction } from 'probot';
import type { InstallationOctokit } from '../github-app.js';
import type { BackgroundTasks } from '../background-tasks.js';
import { finishDelivery, recordDelivery } from './deliveries.js';
import { handleInstallation, handleInstallationRepositories } from './installations.js';
import { handlePullRequest } from './pull-requests.js';
import { handlePush } from './pushes.js';
import { handleIssueComment, handleReviewComment } from './comments.js';
import type { HandlerResult, WebhookDeps } from './webhook-deps.js';

// Each handler takes its own event's delivery; the table is keyed by event name, so the cast is checked by the key.
type Handler = (deps: WebhookDeps, delivery: never) => Promise<HandlerResult>;

const HANDLERS: Record<string, Handler | undefined> = {
  installation: handleInstallation as Handler,
  installation_repositories: handleInstallationRepositories as Handler,
  pull_request: handlePullRequest as Handler,
  push: handlePush as Handler,
  issue_comment: handleIssueComment as Handler,
  pull_request_review_comment: handleReviewComment as Handler,
};

/**
 * Probot's application function: every delivery is recorded by its X-GitHub-Delivery id first (a redelivery, or
 * a copy reaching another replica, stops there), then handled in the background so GitHub's request is answered
 * in milliseconds whatever the handler has to ask GitHub. The outcome is kept on the delivery's row.
 */
export function createWebhookApp(deps: WebhookDeps & { tasks: BackgroundTasks }): ApplicationFunction {
  const { db, clock } = deps;
  return (app) => {
    app.onAny(async (context) => {
      const action = (context.payload as { action?: unknown }).action;
      const log = deps.logger.child({ delivery: context.id, event: context.name, action });
      const fresh = await recordDelivery({ db, clock, id: context.id, event: context.name, action: typeof action === 'string' ? action : null });
      if (!fresh) {
        log.info('webhook delivery already received; not processed again');
        return;
      }
      // own keys only: an event named "constructor" or "__proto__" must not find Object's members
      const handler = Object.hasOwn(HANDLERS, context.name) ? HANDLERS[context.name] : undefined;
      if (!handler) {
        await finishDelivery({ db, clock, id: context.id, status: 'ignored', outcome: `${context.name} is not handled` });
        return;
      }
      // Probot hands onAny handlers its Context, which carries the installation's Octokit.
      const { octokit } = context as unknown as { octokit: InstallationOctokit };
      const delivery = { id: context.id, name: context.name, payload: context.payload, octokit } as unknown as never;
      deps.tasks.run(`webhook ${context.name}`, async () => {
        let result: HandlerResult;
        try {
          result = await handler(deps, delivery);
        } catch (err) {
          log.error({ err }, 'webhook delivery failed');
          await finishDelivery({ db, clock, id: context.id, status: 'failed', outcome: (err as Error)?.message ?? String(err) });
          return;
        }
        await finishDelivery({ db, clock, id: context.id, ...result });
        log.info({ status: result.status, outcome: result.outcome }, 'webhook delivery processed');
      });
    });
  };
}
