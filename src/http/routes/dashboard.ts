import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import type { RouteModule } from '../app.js';

const require = createRequire(import.meta.url);
const pageDir = path.resolve(import.meta.dirname, '../dashboard');
const chartJs = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/**
 * `/dashboard`: a static page (HTML, CSS, JS, and Chart.js from node_modules) that reads the public API with a
 * key the user pastes. Nothing is fetched from a CDN.
 */
export const dashboardRoutes: RouteModule = (router) => {
  router.get('/dashboard', (_req, res) => {
    res.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'");
    res.sendFile(path.join(pageDir, 'index.html'));
  });
  router.get('/dashboard/vendor/chart.umd.min.js', (_req, res) => {
    res.type('application/javascript').sendFile(chartJs);
  });
  router.use('/dashboard', express.static(pageDir, { index: false, maxAge: '5m' }));
};
