import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import { httpRequestDuration } from '../metrics/metrics.js';
import { requestIdOf } from './request-id.js';
import { logRequest } from './request-log.js';

/**
 * A route answered ahead of the app's middleware chain and router, for an endpoint so busy and so cheap that walking
 * the chain (request id, log and metrics middleware, then every route before it) costs more than handling it.
 * Its router twin stays mounted: it answers every request `accepts` turns away, and the two must answer alike.
 */
export interface HotRoute {
  method: string;
  /** compared with the request line's path exactly: a query string, other case or trailing slash goes to the router */
  path: string;
  /** whether the hot handler answers this request; decided from the request line and headers, before anything is read */
  accepts?(req: IncomingMessage): boolean;
  /** answers the request, or hands `fail` an error, which the app's error handler answers as for any route */
  handle(req: Request, res: Response, fail: (err: unknown) => void): void;
}

/** Lets a route module add hot routes beside its router routes. */
export type AddHotRoute = (route: HotRoute) => void;

/**
 * The middleware that runs hot routes: mounted first, it gives an accepted request what the chain would (its
 * X-Request-Id, log line and duration metric under the route's path) and hands every other request on.
 */
export function hotRoutes(logger: Logger): { add: AddHotRoute; middleware: RequestHandler } {
  const routes = new Map<string, HotRoute>();
  const middleware: RequestHandler = (req, res, next) => {
    const route = routes.get(`${req.method} ${req.url}`);
    if (!route || (route.accepts && !route.accepts(req))) {
      next();
      return;
    }
    const startedNs = process.hrtime.bigint();
    const requestId = requestIdOf(req.get('x-request-id'));
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.once('finish', () => {
      const status = res.statusCode;
      logRequest(logger, { requestId, method: req.method, route: route.path, status, startedNs });
      httpRequestDuration.observe({ method: req.method, route: route.path, status: String(status) }, Number(process.hrtime.bigint() - startedNs) / 1e9);
    });
    route.handle(req, res, next);
  };
  return { add: (route) => void routes.set(`${route.method} ${route.path}`, route), middleware };
}
