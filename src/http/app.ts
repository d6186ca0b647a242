import { bodyLimit } from './body-limit.js';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { AppContext } from './context.js';
import { requestId } from './request-id.js';
import { errorHandler, notFoundRoute } from './error-handler.js';
import { requestLog } from './request-log.js';
import { measureRequests } from './measure-requests.js';
import { hotRoutes, type AddHotRoute, type AppHandle } from './hot-routes.js';

/**
 * A route module: mounts its routes on the router it is given, and may add hot routes (see hot-routes.ts) — which
 * only ever shorten the way to a route, so a module mounted without `addHotRoute` behaves the same.
 */
export type RouteModule = (router: Router, ctx: AppContext, addHotRoute?: AddHotRoute) => void;

export interface HttpAppParams {
  ctx: AppContext;
  routes: RouteModule[];
  /** Probot's webhook middleware; mounted before any body parser, since it verifies the raw body's signature. */
  webhooks: RequestHandler;
  /**
   * the largest delivery the webhook middleware reads: a longer declared body is answered 413 before it is read
   * (servers without webhooks, such as the benchmarks', leave it out)
   */
  webhookBodyLimit?: number;
}

export function createHttpApp({ ctx, routes, webhooks, webhookBodyLimit }: HttpAppParams): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  const hot = hotRoutes(ctx.logger);
  // hot routes answer before Express sets the request up (see hot-routes.ts): the app function hands every request
  // to its `handle` (Express's own, untyped)
  const handled = app as unknown as { handle: AppHandle };
  const expressHandle = handled.handle.bind(app);
  handled.handle = (req, res, next) => {
    // Every answer, hot or routed, JSON, CSV, error or static file, is the type its Content-Type says: a browser must
    // not sniff HTML or script out of a body (a reader's comment in a CSV export, say). Set once, here, for all.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!hot.dispatch(req, res, expressHandle, next)) expressHandle(req, res, next);
  };
  app.use(hot.failures);
  app.use(requestId);
  app.use(requestLog(ctx.logger));
  app.use(measureRequests);
  if (webhookBodyLimit !== undefined) app.use('/api/github/webhooks', bodyLimit(webhookBodyLimit));
  app.use('/api/github/webhooks', webhooks);
  const router = express.Router();
  for (const mount of routes) mount(router, ctx, hot.add);
  app.use(router);
  app.use(notFoundRoute);
  app.use(errorHandler(ctx.logger));
  return app;
}
