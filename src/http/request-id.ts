import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';

const SAFE_INCOMING_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** The caller's own X-Request-Id if it sent a sane one, else a fresh UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && SAFE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Every response carries X-Request-Id (see requestIdOf). */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdOf(req.get('x-request-id'));
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
