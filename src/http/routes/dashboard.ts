import fs from 'node:fs';
import path from 'node:path';
import type { RouteModule } from '../app.js';
import { missingForAgentJobs } from '../../config.js';

const pageDir = path.resolve(import.meta.dirname, '../dashboard');
/** The one script the page loads, bundled from ../dashboard/app by scripts/build-dashboard.js. */
export const DASHBOARD_BUNDLE = path.join(pageDir, 'build/dashboard.js');

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * `/dashboard`: a static page whose one bundled script reads the public API with a key the user pastes; nothing is
 * fetched from a CDN. The page is told what agent jobs still need on this server (settings to make, never their
 * values), so the jobs view can say why there are none instead of showing an empty list.
 */
export const dashboardRoutes: RouteModule = (router, ctx) => {
  const template = fs.readFileSync(path.join(pageDir, 'index.html'), 'utf8');
  const page = template.replace('{{jobsMissing}}', escapeAttribute(JSON.stringify(missingForAgentJobs(ctx.config))));
  router.get('/dashboard', (_req, res) => {
    if (!fs.existsSync(DASHBOARD_BUNDLE)) {
      res
        .status(503)
        .type('text/plain')
        .send('The dashboard is not built on this server: run npm run build:dashboard\n');
      return;
    }
    res.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'");
    res.type('html').send(page);
  });
  router.get('/dashboard/dashboard.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'no-cache').sendFile(DASHBOARD_BUNDLE);
  });
  router.get('/dashboard/dashboard.css', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(path.join(pageDir, 'dashboard.css'));
  });
};
