import express, { type Express, type RequestHandler, type Router } from 'express';
import type { AppContext } from './context.js';
import { requestId } from './request-id.js';
import { errorHandler, notFoundRoute } from './error-handler.js';
import { requestLog } from './request-log.js';
import { measureRequests } from './measure-requests.js';

/** A route module: mounts its routes on the router it is given. */
export type RouteModule = (router: Router, ctx: AppContext) => void;

export interface HttpAppParams {
  ctx: AppContext;
  routes: RouteModule[];
  /** Probot's webhook middleware; mounted before any body parser, since it verifies the raw body's signature. */
  webhooks: RequestHandler;
}

export function createHttpApp({ ctx, routes, webhooks }: HttpAppParams): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(requestLog(ctx.logger));
  app.use(measureRequests);
  app.use('/api/github/webhooks', webhooks);
  const router = express.Router();
  for (const mount of routes) mount(router, ctx);
  app.use(router);
  app.use(notFoundRoute);
  app.use(errorHandler(ctx.logger));
  return app;
}
