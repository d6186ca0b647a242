import type { RequestHandler } from 'express';
import { httpRequestDuration } from '../metrics/metrics.js';

/**
 * Times every request, labelled by the matched route pattern (never the raw URL: ids and paths would explode
 * the label set); requests that matched no route share one label.
 */
export const measureRequests: RequestHandler = (req, res, next) => {
  const end = httpRequestDuration.startTimer();
  res.on('finish', () => {
    const route = req.route?.path
      ? `${req.baseUrl}${String(req.route.path)}`
      : req.originalUrl.startsWith('/api/github/webhooks')
        ? '/api/github/webhooks'
        : '(unmatched)';
    end({ method: req.method, route, status: String(res.statusCode) });
  });
  next();
};
