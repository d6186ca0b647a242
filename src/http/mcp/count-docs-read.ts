import type { Request } from 'express';
import type { Analytics } from '../../analytics/analytics.js';
import { clientIp } from '../../analytics/ingest/client-ip.js';
import { signatureHeadersOf } from '../../analytics/ingest/signature-headers.js';

/** An MCP client's name as an agent name: plain characters only, else none (the user agent then decides). */
export function agentOfClient(name: string | undefined): string | undefined {
  return name && /^[\w .@/+-]{1,64}$/.test(name) ? name.trim() : undefined;
}

/**
 * Counts a page served to an agent (over MCP, llms.txt or a `.md` page) as an AI view of that page, through the
 * normal ingest: the page as its raw Markdown (`/guide/intro.md` is the page `/guide/intro`), the request's user
 * agent, address and Web Bot Auth headers (verified as any signed view), and the MCP client's name as the agent when
 * the user agent names none.
 */
export async function countDocsRead(params: {
  analytics: Analytics;
  projectId: string;
  req: Request;
  trustedProxyHeader: string | undefined;
  /** the page's site path, or `/llms.txt` */
  page: string;
  clientName?: string;
  now: number;
}): Promise<void> {
  const { analytics, projectId, req, page, now } = params;
  const headers = signatureHeadersOf(req.headers, req.headers.host);
  await analytics.ingest(projectId, [
    {
      timestamp: now,
      url: page === '/llms.txt' ? page : page === '/' ? '/.md' : `${page}.md`,
      userAgent: req.get('user-agent'),
      ip: clientIp(req, params.trustedProxyHeader),
      agent: agentOfClient(params.clientName),
      headers,
      requestUrl: req.originalUrl,
    },
  ]);
}
