import type { RouteModule } from '../app.js';
import { renderMetrics } from '../../metrics/metrics.js';

/** `GET /metrics` in Prometheus text format. */
export const metricsRoutes: RouteModule = (router) => {
  router.get('/metrics', async (_req, res) => {
    const { contentType, body } = await renderMetrics();
    res.setHeader('Content-Type', contentType);
    res.send(body);
  });
};
