import type { Request, RequestHandler, Response } from 'express';
import type { Analytics } from '../../analytics/analytics.js';
import { clientIp } from '../../analytics/ingest/client-ip.js';
import { NotFound, RateLimited } from '../../errors.js';
import { docsArePublic } from '../../projects/docs-access.js';
import { getProject, type Project } from '../../projects/projects.js';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import type { AppContext } from '../context.js';
import { jsonBody } from '../json-body.js';
import { ClientRateLimit } from '../mcp/client-rate-limit.js';
import { countDocsRead } from '../mcp/count-docs-read.js';
import { docsMcpServer } from '../mcp/docs-mcp-server.js';
import type { DocsSites } from '../mcp/docs-sites.js';
import { llmsTxt } from '../mcp/llms-txt.js';
import { McpSessions } from '../mcp/mcp-sessions.js';
import { pageSlug } from '../mcp/page-path-gate.js';

/** requests a minute per client address, for the MCP endpoint, llms.txt and pages together */
export const DOCS_REQUESTS_PER_MINUTE = 120;
/** an MCP tool call is a few hundred bytes of JSON */
const MCP_BODY_LIMIT = '64kb';

/**
 * A project's docs served to agents: an MCP endpoint (Streamable HTTP) with `search_docs`, `read_page` and
 * `list_pages`, `llms.txt`, and each page's Markdown, all from one index of the docs repository at the project's
 * ref. Public or behind a read key (the project's docs access); rate-limited per client address; every page read
 * counted as an AI view of it.
 */
export const mcpRoutes =
  ({ analytics, sites }: { analytics: Analytics; sites: DocsSites }): RouteModule =>
  (router, ctx) => {
    const limit = new ClientRateLimit({ perMinute: DOCS_REQUESTS_PER_MINUTE, now: () => ctx.clock().getTime() });
    const sessions = new McpSessions({ max: 10_000, idleMs: 30 * 60_000 });
    const { trustedProxyHeader } = ctx.config.analytics;
    const gate = [rateLimited(limit, trustedProxyHeader), docsAccess(ctx)];
    const count = (req: Request, project: Project, page: string, clientName?: string) =>
      countDocsRead({
        analytics,
        projectId: project.id,
        req,
        trustedProxyHeader,
        page,
        clientName,
        now: ctx.clock().getTime(),
      });

    router.post('/mcp/:projectId', ...gate, ...jsonBody({ limit: MCP_BODY_LIMIT }), async (req, res) => {
      const project = authenticatedProject(res);
      const id = req.get('mcp-session-id');
      let session = id ? sessions.get(id) : undefined;
      if (id && session?.projectId !== project.id) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (!session) {
        const opened = sessions.open(
          project.id,
          docsMcpServer({
            name: `${project.repository} docs`,
            site: () => sites.get(project),
            // the read's own HTTP request (its user agent, address and signature), handed through the transport
            onRead: (slug, request) =>
              count(request?.req as Request, project, slug, opened.server.server.getClientVersion()?.name),
          }),
        );
        await opened.server.connect(opened.transport);
        session = opened;
      }
      const withRequest = Object.assign(req, { auth: { token: '', clientId: 'docs', scopes: [], extra: { req } } });
      await session.transport.handleRequest(withRequest, res, req.body);
    });
    // no server-initiated messages: every answer comes back on its POST
    router.get('/mcp/:projectId', ...gate, (_req, res) => {
      res.set('Allow', 'POST, DELETE');
      jsonRpcError(res, 405, -32000, 'Method not allowed: this server answers on POST only');
    });
    router.delete('/mcp/:projectId', ...gate, async (req, res) => {
      const id = req.get('mcp-session-id');
      const session = id ? sessions.get(id) : undefined;
      if (!session || session.projectId !== authenticatedProject(res).id)
        return jsonRpcError(res, 404, -32001, 'Session not found');
      await session.transport.handleRequest(req, res);
    });

    router.get('/mcp/:projectId/llms.txt', ...gate, async (req, res) => {
      const project = authenticatedProject(res);
      const site = await sites.get(project);
      await count(req, project, '/llms.txt');
      res
        .type('text/plain; charset=utf-8')
        .send(llmsTxt({ site, title: project.repository, base: `/mcp/${project.id}/pages` }));
    });
    router.get('/mcp/:projectId/pages/*path', ...gate, async (req, res) => {
      const project = authenticatedProject(res);
      const asked = (req.params as { path?: string | string[] }).path;
      const gated = pageSlug(Array.isArray(asked) ? asked.join('/') : String(asked ?? ''));
      if ('error' in gated) throw new NotFound(`No page: ${gated.error}`);
      const page = (await sites.get(project)).pages.get(gated.slug);
      if (!page) throw new NotFound(`No page at ${gated.slug}`);
      await count(req, project, page.slug);
      res.type('text/markdown; charset=utf-8').send(page.markdown);
    });
  };

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function rateLimited(limit: ClientRateLimit, trustedProxyHeader: string | undefined): RequestHandler {
  return (req, _res, next) => {
    const taken = limit.take(clientIp(req, trustedProxyHeader) ?? 'unknown');
    if (taken.ok) return next();
    next(new RateLimited('Too many requests from this address; slow down', taken.retryAfterSeconds));
  };
}

/** Anyone for a project whose docs are public, else a read key of the project (as every read route). */
function docsAccess(ctx: AppContext): RequestHandler {
  const keyed = requireApiKey(ctx, 'read');
  return async (req, res, next) => {
    try {
      const projectId = String(req.params.projectId);
      if (!(await docsArePublic(ctx.db, projectId))) return keyed(req, res, next);
      res.locals.project = await getProject(ctx.db, projectId);
      next();
    } catch (err) {
      next(err);
    }
  };
}
