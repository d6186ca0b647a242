import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { Invalid } from '../errors.js';
import { urlHostname } from '../analytics/ingest/page-path.js';
import { clientIp } from '../analytics/ingest/client-ip.js';
import type { BrowserHit } from '../analytics/ingest/collect-browser.js';
import { zodDetails } from './parse-input.js';

/** Browser endpoints (tracker events, feedback, searches) are posted to from the docs site's own origin. */
export const browserCors: RequestHandler = (_req, res, next) => {
  res.set('Access-Control-Allow-Origin', '*');
  next();
};

/** What a browser endpoint's CORS preflight answers, after `Access-Control-Allow-Origin`. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

/** The CORS preflight of a fetch() that sends JSON; sendBeacon's text/plain needs none. */
export const browserPreflight: RequestHandler = (_req, res) => {
  res.set(PREFLIGHT_HEADERS).status(204).end();
};

/**
 * A browser submission: JSON sent as text (sendBeacon and the widget post text/plain, fetch callers may send JSON;
 * both arrive as text), validated by `schema`, with an http(s) page `url`. `what` names it in the 400's sentence.
 */
export function parseBrowserSubmission<S extends z.ZodType<{ url: string }>>(
  req: Request,
  schema: S,
  what: string,
): z.output<S> {
  return parseBrowserText(typeof req.body === 'string' ? req.body : '', schema, what);
}

/** parseBrowserSubmission of a body already read as text. */
export function parseBrowserText<S extends z.ZodType<{ url: string }>>(
  text: string,
  schema: S,
  what: string,
): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Invalid('Malformed JSON in request body');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw new Invalid(`Invalid ${what}`, zodDetails(result.error));
  if (!urlHostname(result.data.url)) throw new Invalid(`Invalid ${what}`, [{ message: 'url: must be an http(s) URL' }]);
  return result.data;
}

/**
 * Who posted a browser submission about the page `url`: Origin, user agent and client address, read from the raw
 * request so Express routes and hot routes read them alike.
 */
export function browserHit(params: {
  req: IncomingMessage;
  trustedProxyHeader: string | undefined;
  projectId: string;
  url: string;
}): BrowserHit {
  const { req, trustedProxyHeader, projectId, url } = params;
  const { origin, 'user-agent': userAgent } = req.headers;
  return { projectId, url, origin, userAgent, ip: clientIp(req, trustedProxyHeader) };
}
