import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { DocsSite } from './docs-site.js';
import { MAX_PAGE_PATH, pageSlug } from './page-path-gate.js';

const MAX_QUERY = 500;
const MAX_RESULTS = 25;

/** What a tool answers: its result as JSON text (for any client) and as structured content. */
function result(value: Record<string, unknown>) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
}

function failure(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true };
}

/**
 * The docs site's MCP tools: `search_docs`, `read_page` and `list_pages`, each a small function over the site's
 * index. `onRead` is told of every page read (the caller counts it as an AI view).
 */
export function docsMcpServer(params: {
  name: string;
  site: () => Promise<DocsSite>;
  /** `request`: what the transport was handed as the HTTP request's `auth.extra` (the route's own request) */
  onRead: (slug: string, request: Record<string, unknown> | undefined) => Promise<void>;
}): McpServer {
  const server = new McpServer({ name: params.name, version: '1.0.0' });
  server.registerTool(
    'search_docs',
    {
      description: 'Search the documentation; answers the best pages, each with its path, title and a snippet.',
      inputSchema: {
        query: z.string().min(1).max(MAX_QUERY).describe('words to look for'),
        limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`at most this many pages (10)`),
      },
    },
    async ({ query, limit }) => {
      const site = await params.site();
      return result({ results: site.search.search(query, limit ?? 10) });
    },
  );
  server.registerTool(
    'read_page',
    {
      description: 'Read one documentation page as Markdown, by its path (as search_docs and list_pages give it).',
      inputSchema: { path: z.string().min(1).max(MAX_PAGE_PATH).describe('the page path, e.g. /guide/intro') },
    },
    async ({ path }, extra) => {
      const gate = pageSlug(path);
      if ('error' in gate) return failure(gate.error);
      const site = await params.site();
      const page = site.pages.get(gate.slug);
      if (!page) return failure(`no page at ${gate.slug}`);
      await params.onRead(page.slug, extra.authInfo?.extra);
      return result({ path: page.slug, title: page.title, markdown: page.markdown });
    },
  );
  server.registerTool(
    'list_pages',
    { description: "The documentation's navigation: its groups and their pages (path and title)." },
    async () => result({ groups: (await params.site()).navigation }),
  );
  return server;
}
