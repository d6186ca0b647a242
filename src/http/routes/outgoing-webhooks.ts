import type { Router } from 'express';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { parseInput } from '../parse-input.js';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSecret,
  updateSubscription,
  type Subscription,
  type SubscriptionDeps,
} from '../../notifications/subscriptions.js';
import { listDeliveries, redeliver, sendPing, type Delivery } from '../../notifications/deliveries.js';
import type { resolveTarget } from '../../notifications/check-target.js';
import { CreateSubscriptionRequest, DeliveriesQuery, UpdateSubscriptionRequest } from './outgoing-webhooks-schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toSubscriptionResponse(s: Subscription) {
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    description: s.description,
    enabled: s.enabled,
    disabledReason: s.disabledReason,
    failingSince: iso(s.failingSince),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

function toDeliveryResponse(d: Delivery) {
  return {
    ...d,
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: iso(d.nextAttemptAt),
    endedAt: iso(d.endedAt),
    tries: d.tries.map((t) => ({ ...t, at: t.at.toISOString() })),
  };
}

/**
 * /v1/webhooks/:projectId/…: a project's outgoing webhook subscriptions, their deliveries, a ping and a redelivery.
 * `wake` tells this process's notifier that a message is due now.
 */
export function outgoingWebhookRoutes(
  options: { wake?: () => void; resolve?: Parameters<typeof resolveTarget>[2] } = {},
): RouteModule {
  const wake = () => options.wake?.();
  return (router: Router, ctx: AppContext) => {
    const auth = requireApiKey(ctx);
    const deps: SubscriptionDeps = {
      db: ctx.db,
      clock: ctx.clock,
      policy: ctx.config.outgoingWebhooks,
      resolve: options.resolve,
    };
    const base = '/v1/webhooks/:projectId';
    const ids = (req: { params: Record<string, unknown> }, res: Parameters<typeof authenticatedProject>[0]) => ({
      projectId: authenticatedProject(res).id,
      id: String(req.params.id),
    });

    router.post(base, auth, ...jsonBody({ limit: '16kb' }), async (req, res) => {
      const input = parseInput(CreateSubscriptionRequest, req.body, 'webhook subscription');
      const { subscription, secret } = await createSubscription(deps, {
        projectId: authenticatedProject(res).id,
        ...input,
      });
      res.status(201).json({ ...toSubscriptionResponse(subscription), secret });
    });

    router.get(base, auth, async (_req, res) => {
      const subscriptions = await listSubscriptions(ctx.db, authenticatedProject(res).id);
      res.json({ subscriptions: subscriptions.map(toSubscriptionResponse) });
    });

    router.get(`${base}/:id`, auth, async (req, res) => {
      const { projectId, id } = ids(req, res);
      res.json(toSubscriptionResponse(await getSubscription(ctx.db, projectId, id)));
    });

    router.patch(`${base}/:id`, auth, ...jsonBody({ limit: '16kb' }), async (req, res) => {
      const input = parseInput(UpdateSubscriptionRequest, req.body, 'webhook subscription change');
      res.json(toSubscriptionResponse(await updateSubscription(deps, { ...ids(req, res), ...input })));
    });

    router.delete(`${base}/:id`, auth, async (req, res) => {
      const { projectId, id } = ids(req, res);
      await deleteSubscription(ctx.db, projectId, id);
      res.status(204).end();
    });

    router.post(`${base}/:id/rotate-secret`, auth, async (req, res) => {
      const { projectId, id } = ids(req, res);
      const rotated = await rotateSecret(deps, projectId, id);
      res.json({
        subscription: toSubscriptionResponse(rotated.subscription),
        secret: rotated.secret,
        previousSecretExpiresAt: rotated.previousExpiresAt.toISOString(),
      });
    });

    router.post(`${base}/:id/test`, auth, async (req, res) => {
      const { projectId, id } = ids(req, res);
      const ping = await sendPing({ db: ctx.db, clock: ctx.clock, projectId, subscriptionId: id });
      wake();
      res.status(202).json({ deliveryId: ping.id });
    });

    router.get(`${base}/:id/deliveries`, auth, async (req, res) => {
      const query = parseInput(DeliveriesQuery, req.query, 'query');
      const { projectId, id } = ids(req, res);
      const page = await listDeliveries({ db: ctx.db, projectId, subscriptionId: id, ...query });
      res.json({ deliveries: page.deliveries.map(toDeliveryResponse), hasMore: page.hasMore });
    });

    router.post(`${base}/:id/deliveries/:deliveryId/redeliver`, auth, async (req, res) => {
      const { projectId, id } = ids(req, res);
      await redeliver({
        db: ctx.db,
        clock: ctx.clock,
        projectId,
        subscriptionId: id,
        id: String(req.params.deliveryId),
      });
      wake();
      res.status(202).json({ deliveryId: String(req.params.deliveryId) });
    });
  };
}
