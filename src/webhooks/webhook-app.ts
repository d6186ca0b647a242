import type { ApplicationFunction } from 'probot';
import { recordDelivery } from './deliveries.js';
import { handleInstallation, handleInstallationRepositories } from './installations.js';
import { handlePullRequest } from './pull-requests.js';
import { handleCheckRun } from './docs-draft-requests.js';
import { handleSourcePullForDrafts } from './docs-draft-follow.js';
import { handlePush } from './pushes.js';
import { handleIssueComment, handleReviewComment } from './comments.js';
import type { ClaimedDelivery } from './delivery-queue.js';
import type { HandlerResult, WebhookDeps } from './webhook-deps.js';

// Each handler takes its own event's delivery; the table is keyed by event name, so the cast is checked by the key.
type Handler = (deps: WebhookDeps, delivery: never) => Promise<HandlerResult>;
/** A handler of one concern among several of an event: null when the delivery is none of its business. */
type Concern = (deps: WebhookDeps, delivery: never) => Promise<HandlerResult | null>;

/** An event's main handler, then the handlers of other concerns, in turn: done when any did something. */
function each(main: Handler, ...others: Concern[]): Handler {
  return async (deps, delivery) => {
    const results: HandlerResult[] = [await main(deps, delivery)];
    for (const other of others) {
      const result = await other(deps, delivery);
      if (result) results.push(result);
    }
    const acted = results.filter((r) => r.status === 'done');
    return {
      status: acted.length ? 'done' : 'ignored',
      outcome: (acted.length ? acted : results).map((r) => r.outcome).join('; '),
    };
  };
}

const HANDLERS: Record<string, Handler | undefined> = {
  installation: handleInstallation as Handler,
  installation_repositories: handleInstallationRepositories as Handler,
  // a Scribe pull request's state on its job; a source pull request's docs drafts
  pull_request: each(handlePullRequest as Handler, handleSourcePullForDrafts as Concern),
  check_run: handleCheckRun as Handler,
  push: handlePush as Handler,
  issue_comment: handleIssueComment as Handler,
  pull_request_review_comment: handleReviewComment as Handler,
};

// own keys only: an event named "constructor" or "__proto__" must not find Object's members
const handlerOf = (event: string) => (Object.hasOwn(HANDLERS, event) ? HANDLERS[event] : undefined);

/**
 * Probot's application function: every delivery is recorded by its X-GitHub-Delivery id, with its payload on the same
 * row (a redelivery, or a copy reaching another replica, stops there), before GitHub gets its 200. The delivery queue
 * (delivery-worker.ts) processes it afterwards, on whichever replica claims it first.
 */
export function createWebhookApp(deps: {
  db: WebhookDeps['db'];
  clock: WebhookDeps['clock'];
  logger: WebhookDeps['logger'];
  /** a delivery was stored: look for it now rather than at the next poll */
  wake: () => void;
}): ApplicationFunction {
  const { db, clock } = deps;
  return (app) => {
    app.onAny(async (context) => {
      const payload = context.payload as { action?: unknown; installation?: { id?: unknown } };
      const action = typeof payload.action === 'string' ? payload.action : null;
      const log = deps.logger.child({ delivery: context.id, event: context.name, action });
      const installationId = payload.installation?.id;
      const fresh = await recordDelivery({
        db,
        clock,
        id: context.id,
        event: context.name,
        action,
        work: handlerOf(context.name)
          ? {
              payload: JSON.stringify(context.payload),
              installationId: typeof installationId === 'number' ? installationId : null,
            }
          : { ignored: `${context.name} is not handled` },
      });
      if (!fresh) log.info('webhook delivery already received; not processed again');
      else deps.wake();
    });
  };
}

/** Runs a claimed delivery's handler with an Octokit authenticated as the delivery's installation. */
export async function processDelivery(deps: WebhookDeps, claimed: ClaimedDelivery): Promise<HandlerResult> {
  const handler = handlerOf(claimed.event);
  if (!handler) return { status: 'ignored', outcome: `${claimed.event} is not handled` };
  if (claimed.installationId === null) return { status: 'ignored', outcome: 'the delivery names no installation' };
  const octokit = await deps.github.octokit(claimed.installationId);
  const delivery = { id: claimed.id, name: claimed.event, payload: JSON.parse(claimed.payload), octokit };
  return handler(deps, delivery as never);
}
