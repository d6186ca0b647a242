import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';

const SAFE_INCOMING_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Every response carries X-Request-Id: the caller's own if it sent a sane one, else a fresh UUID. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && SAFE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
