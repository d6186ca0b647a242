import type { RequestHandler } from 'express';
import { createNodeMiddleware, type ApplicationFunction, type Probot } from 'probot';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createProbot, githubApiBaseUrl } from './create-probot.js';

export { githubApiBaseUrl };

/**
 * Probot's webhook middleware for /api/github/webhooks when the GitHub App is configured; otherwise a 503
 * that says what to set. Probot verifies `x-hub-signature-256` against the raw body itself.
 */
export async function createWebhookMiddleware(params: {
  config: Config;
  logger: Logger;
  appFn: ApplicationFunction;
  /** the process's shared instance (see create-probot.ts); made here when not given */
  probot?: Probot | null;
}): Promise<{ middleware: RequestHandler; probot: Probot | null }> {
  const { github } = params.config;
  if (!github.appId || !github.privateKey || !github.webhookSecret) {
    const middleware: RequestHandler = (_req, res) => {
      res.status(503).json({ error: 'GitHub App is not configured: set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET' });
    };
    return { middleware, probot: null };
  }
  const probot = params.probot ?? createProbot(params);
  if (!probot) throw new Error('unreachable: the GitHub App is configured');
  const handler = await createNodeMiddleware(params.appFn, { probot, webhooksPath: '/' });
  const middleware: RequestHandler = (req, res, next) => {
    void handler(req, res, next);
  };
  return { middleware, probot };
}
