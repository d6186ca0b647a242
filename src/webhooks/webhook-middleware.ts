import express, { type RequestHandler } from 'express';
import { Invalid } from '../errors.js';
import { deliveryProblem, MAX_DELIVERY_BYTES } from './delivery-problem.js';
import { createNodeMiddleware, type ApplicationFunction, type Probot } from 'probot';
import { gitHubAppConfigured, type Config } from '../config.js';
import type { Logger } from '../logger.js';

/**
 * Probot's webhook middleware for /api/github/webhooks when the GitHub App is configured; otherwise a 503
 * that says what to set. Probot verifies `x-hub-signature-256` against the raw body itself.
 */
export async function createWebhookMiddleware(params: {
  config: Config;
  logger: Logger;
  appFn: ApplicationFunction;
  /** the process's one instance (see create-probot.ts) */
  probot: Probot | null;
}): Promise<{ middleware: RequestHandler }> {
  const { github } = params.config;
  const { probot } = params;
  if (!probot || !gitHubAppConfigured(github) || !github.webhookSecret) {
    const middleware: RequestHandler = (_req, res) => {
      res.status(503).json({
        error: 'GitHub App is not configured: set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET',
      });
    };
    return { middleware };
  }
  const handler = await createNodeMiddleware(params.appFn, { probot, webhooksPath: '/' });
  const readBody = express.raw({ type: () => true, limit: MAX_DELIVERY_BYTES });
  // The body is read here, with GitHub's size cap, so that a correctly signed payload that is not an event (null,
  // a string, an installation id that is not a number) gets a 400 before Probot builds a context from it.
  // Probot takes the same bytes from `rawBody` and checks the signature itself, so a bad one keeps Probot's answer.
  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'POST') {
      void handler(req, res, next);
      return;
    }
    readBody(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      Object.assign(req, { rawBody: raw, body: {} });
      const signature = req.get('x-hub-signature-256');
      if (!req.is('application/json') || !signature) {
        void handler(req, res, next);
        return;
      }
      const body = raw.toString('utf8');
      probot.webhooks.verify(body, signature).then(
        (signed) => {
          const problem = signed
            ? deliveryProblem({ event: req.get('x-github-event'), id: req.get('x-github-delivery'), body })
            : undefined;
          if (problem) {
            params.logger.warn(
              { delivery: req.get('x-github-delivery')?.slice(0, 128), problem },
              'signed webhook request is not a GitHub event',
            );
            next(new Invalid(`Not a GitHub webhook delivery: ${problem}`));
          } else {
            void handler(req, res, next);
          }
        },
        // a signature header Octokit cannot even parse: Probot answers it as a mismatch
        () => void handler(req, res, next),
      );
    });
  };
  return { middleware };
}
