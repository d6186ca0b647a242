import express, { type RequestHandler } from 'express';
import { DomainError } from '../errors.js';
import { bodyLimit, type BodyLimit } from './body-limit.js';

export class UnsupportedMediaType extends DomainError {}

const DEFAULT_JSON_LIMIT: BodyLimit = '1mb';

/**
 * Parses a JSON request body with a size limit. A body with another content type is refused with 415
 * (not silently ignored), an empty or unparsable one with 400, an oversized one with 413
 * (mapped in error-handler.ts), at once when its declared length says so (body-limit.ts).
 */
export function jsonBody(options: { limit?: BodyLimit } = {}): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!req.is('application/json') && !req.is('application/*+json')) {
      next(new UnsupportedMediaType('Content-Type must be application/json'));
      return;
    }
    next();
  };
  const limit = options.limit ?? DEFAULT_JSON_LIMIT;
  return [requireJson, bodyLimit(limit), express.json({ limit, strict: false, type: () => true })];
}
