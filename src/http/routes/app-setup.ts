import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { githubWebBase } from '../../github/github-app.js';
import { githubApiBaseUrl } from '../../github/create-probot.js';
import { buildAppManifest, newAppUrl } from '../../github/app-manifest.js';
import { HOUR_MS } from '../../calendar.js';

const APP_YML = path.resolve(import.meta.dirname, '../../../app.yml');
const STATE_TTL_MS = HOUR_MS;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto;white-space:pre-wrap;word-break:break-all}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/** GitHub sends `state` back to the redirect: signed with the server secret so only a flow this server started completes. */
function signState(secret: string, now: number): string {
  const payload = `${now}.${randomBytes(12).toString('hex')}`;
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

function validState(secret: string, state: string, now: number): boolean {
  const [issued, nonce, mac] = state.split('.');
  if (!issued || !nonce || !mac) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${issued}.${nonce}`).digest('hex'));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) && now - Number(issued) < STATE_TTL_MS;
}

function baseUrlOf(ctx: AppContext, req: Request): string {
  return ctx.config.jobs.publicUrl ?? `${req.protocol}://${req.get('host')}`;
}

/**
 * Probot's manifest flow, for a server started without APP_ID: `/probot` posts the manifest built from app.yml to
 * GitHub's "new GitHub App" page; GitHub sends the browser back to `/probot/setup?code=…`, which exchanges the code
 * (`POST /app-manifests/{code}/conversions`) and shows the values to set. Scribe reads its configuration from the
 * environment only, so it shows them rather than writing a file; they are shown once and never logged.
 */
export const appSetupRoutes: RouteModule = (router, ctx) => {
  const { github } = ctx.config;
  const webBase = githubWebBase(github);
  const apiBase = githubApiBaseUrl(github) ?? 'https://api.github.com';

  router.get('/probot', (req, res) => {
    const organization = typeof req.query.org === 'string' ? req.query.org : '';
    const manifest = buildAppManifest({ appYml: fs.readFileSync(APP_YML, 'utf8'), baseUrl: baseUrlOf(ctx, req) });
    const action = newAppUrl({ webBase, organization, state: signState(ctx.secret, ctx.clock().getTime()) });
    res.type('html').send(
      page(
        'Register Scribe as a GitHub App',
        `<p>This creates a GitHub App on <strong>${escapeHtml(webBase)}</strong>${organization ? ` owned by the organisation <strong>${escapeHtml(organization)}</strong>` : ' owned by your account'}, with the events and permissions in <code>app.yml</code>. Its webhook points at <code>${escapeHtml(manifest.hook_attributes.url)}</code>.</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}"><button type="submit">Register on GitHub</button></form>
<form method="get" action="/probot"><p>For an organisation instead: <input name="org" placeholder="organisation login" value="${escapeHtml(organization)}"> <button type="submit">Use it</button></p></form>`,
      ),
    );
  });

  router.get('/probot/setup', async (req, res, next) => {
    try {
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(code) || !validState(ctx.secret, state, ctx.clock().getTime())) {
        res
          .status(400)
          .type('html')
          .send(
            page(
              'Setup link not valid',
              '<p>This link is not from a registration this server started, or it is older than an hour. <a href="/probot">Start again</a>.</p>',
            ),
          );
        return;
      }
      const answer = await fetch(`${apiBase}/app-manifests/${code}/conversions`, {
        method: 'POST',
        headers: { accept: 'application/vnd.github+json', 'user-agent': 'scribe' },
      });
      if (!answer.ok) {
        res
          .status(502)
          .type('html')
          .send(
            page(
              'GitHub refused the code',
              `<p>GitHub answered ${answer.status}. A code works once and for an hour only: <a href="/probot">start again</a>.</p>`,
            ),
          );
        return;
      }
      const app = (await answer.json()) as {
        id: number;
        slug: string;
        pem: string;
        webhook_secret: string;
        html_url: string;
      };
      const env = [
        `APP_ID=${app.id}`,
        `WEBHOOK_SECRET=${app.webhook_secret}`,
        `SCRIBE_APP_SLUG=${app.slug}`,
        `PRIVATE_KEY="${app.pem.trim().replace(/\n/g, '\\n')}"`,
      ];
      res.type('html').send(
        page(
          `GitHub App ${app.slug} registered`,
          `<p>Set these variables where Scribe runs (they are shown only now), then restart it:</p><pre>${escapeHtml(env.join('\n'))}</pre>
<p>Or keep the key in a file: save the PEM and set <code>PRIVATE_KEY_PATH</code> instead of <code>PRIVATE_KEY</code>.</p>
<p>Then <a href="${escapeHtml(app.html_url)}/installations/new">install the App</a> on your docs repositories: each becomes a Scribe project.</p>`,
        ),
      );
    } catch (err) {
      next(err);
    }
  });
};
