import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });
const ACCESS =
  "Public when the project's docs are public (`scribe docs access <project> public`), else a read key of the project. At most 120 requests a minute per client address (429 with `Retry-After` beyond).";
const JsonRpc = z.object({ jsonrpc: z.literal('2.0') }).passthrough();

/** The docs served to agents over MCP, llms.txt and Markdown pages (Scribe additions). */
export const mcpOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/mcp/{projectId}',
    operationId: 'postMcp',
    summary: 'MCP endpoint (Streamable HTTP): search_docs, read_page, list_pages over the docs (Scribe addition)',
    description: `${ACCESS} JSON-RPC 2.0 as the Model Context Protocol's Streamable HTTP transport has it: \`initialize\` answers an \`Mcp-Session-Id\` header that later requests send back. Tools: \`search_docs\` ({query, limit?} → ranked pages with snippets), \`read_page\` ({path} → Markdown; a path climbing out of the site is refused), \`list_pages\` (the navigation). Every page read is counted as an AI view of the page (agent from the client's name or user agent; verified when signed with Web Bot Auth). Bodies over 64 KB: 413.`,
    tag: 'Docs for agents',
    auth: 'read',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: JsonRpc }],
    responses: { 200: { description: 'The JSON-RPC answer', schema: JsonRpc } },
    errors: [404, 413, 415, 429],
  },
  {
    method: 'get',
    path: '/mcp/{projectId}',
    operationId: 'getMcp',
    summary: 'Refused: the MCP endpoint answers on POST only (Scribe addition)',
    description: `${ACCESS} Always 405 with a JSON-RPC error: the server sends nothing unasked.`,
    tag: 'Docs for agents',
    auth: 'read',
    pathParams: ProjectPath,
    responses: { 405: { description: 'Method not allowed', schema: JsonRpc } },
    errors: [429],
  },
  {
    method: 'delete',
    path: '/mcp/{projectId}',
    operationId: 'deleteMcp',
    summary: 'Ends an MCP session (Scribe addition)',
    description: `${ACCESS} The session named by the \`Mcp-Session-Id\` header; 404 when there is none.`,
    tag: 'Docs for agents',
    auth: 'read',
    pathParams: ProjectPath,
    responses: { 200: { description: 'Session ended' } },
    errors: [404, 429],
  },
  {
    method: 'get',
    path: '/mcp/{projectId}/llms.txt',
    operationId: 'getLlmsTxt',
    summary: "The docs' llms.txt: the navigation as links to each page's Markdown (Scribe addition)",
    description: `${ACCESS} Counted as an AI view of \`/llms.txt\`.`,
    tag: 'Docs for agents',
    auth: 'read',
    pathParams: ProjectPath,
    responses: { 200: { description: 'llms.txt', contentType: 'text/plain' } },
    errors: [429],
  },
  {
    method: 'get',
    path: '/mcp/{projectId}/pages/{path}',
    operationId: 'getDocsPage',
    summary: "A docs page's Markdown (Scribe addition)",
    description: `${ACCESS} \`path\` is the page's site path, any depth, with or without \`.md\` (\`/mcp/{projectId}/pages/guide/intro.md\`); \`..\` is refused. Counted as an AI view of the page.`,
    tag: 'Docs for agents',
    auth: 'read',
    pathParams: ProjectPath.extend({ path: z.string().describe('the page path, e.g. guide/intro.md') }),
    responses: { 200: { description: 'The page', contentType: 'text/markdown' } },
    errors: [429],
  },
];
