import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { httpRequestDuration } from '../metrics/metrics.js';
import { requestIdOf } from './request-id.js';
import { logRequest } from './request-log.js';

/**
 * A route answered before Express handles the request at all, for an endpoint so busy and so cheap that Express's
 * share (request and response set-up, the router walk, the request id, log and metric middleware) costs more CPU
 * and garbage than the handling itself. Its router twin stays mounted: it answers every request `accepts` turns
 * away, and the two must answer alike.
 */
export interface HotRoute {
  method: string;
  /** compared with the request line's path exactly: a query string, other case or trailing slash goes to the router */
  path: string;
  /** whether the hot handler answers this request; decided from the request line and headers, before anything is read */
  accepts?(req: IncomingMessage): boolean;
  /** answers the request, or hands `fail` an error, which the app's error handler answers as for any route */
  handle(req: IncomingMessage, res: ServerResponse, fail: (err: unknown) => void): void;
}

/** Lets a route module add hot routes beside its router routes. */
export type AddHotRoute = (route: HotRoute) => void;

/** How Express takes a request: its app's `handle`. */
export type AppHandle = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

const FAILURE = Symbol('hot route failure');
type Failed = IncomingMessage & { [FAILURE]?: unknown };

/**
 * The hot routes of an app. `dispatch` runs ahead of Express: it answers a request a hot route accepts, with what
 * the middleware chain would give it (X-Request-Id, the log line, the duration metric under the route's path), and
 * returns false for any other request, untouched. A hot route's error goes to `app` after all, where `failures`,
 * mounted first, hands it straight to the error handler.
 */
export function hotRoutes(logger: Logger) {
  const routes = new Map<string, HotRoute>();
  const add: AddHotRoute = (route) => void routes.set(`${route.method} ${route.path}`, route);

  const dispatch = (
    req: IncomingMessage,
    res: ServerResponse,
    app: AppHandle,
    next?: (err?: unknown) => void,
  ): boolean => {
    const route = routes.get(`${req.method} ${req.url}`);
    if (!route || (route.accepts && !route.accepts(req))) return false;
    const startedNs = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const requestId = requestIdOf(typeof incoming === 'string' ? incoming : undefined);
    res.setHeader('X-Request-Id', requestId);
    res.once('finish', () => {
      const status = res.statusCode;
      logRequest(logger, { requestId, method: req.method!, route: route.path, status, startedNs });
      httpRequestDuration.observe(
        { method: req.method, route: route.path, status: String(status) },
        Number(process.hrtime.bigint() - startedNs) / 1e9,
      );
    });
    route.handle(req, res, (err) => {
      (req as Failed)[FAILURE] = err;
      // where the requestId middleware leaves it for the error handler
      Object.assign(res, { locals: { requestId } });
      app(req, res, next);
    });
    return true;
  };

  const failures: RequestHandler = (req, _res, next) => {
    const failed = req as Failed;
    if (FAILURE in failed) next(failed[FAILURE]);
    else next();
  };

  return { add, dispatch, failures };
}
