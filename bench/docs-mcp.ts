/**
 * Docs over MCP benchmark (not a test): a 1,000-page docs site (synthetic Markdown, ~2 KB a page, a shared
 * vocabulary with Zipf-like word frequencies), indexed once, then `search_docs` called through the official SDK
 * client over an in-memory transport (the tool's whole path but HTTP): index build time, and p50/p99 per call.
 *   npm run bench:docs-mcp
 *   npm run bench:docs-mcp -- --pages 1000 --calls 500
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { docsMcpServer } from '../src/http/mcp/docs-mcp-server.js';
import { buildDocsSite } from '../src/http/mcp/docs-site.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const PAGES = Number(arg('pages', '1000'));
const CALLS = Number(arg('calls', '500'));

/** A deterministic generator, so every run searches the same site. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rand = random(42);
const vocabulary = Array.from({ length: 5000 }, (_, i) => `term${i.toString(36)}`);
/** Zipf-like: low indexes far more often */
const word = () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)];
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

const files = [
  {
    path: 'docs.json',
    text: JSON.stringify({
      navigation: {
        groups: Array.from({ length: 20 }, (_, g) => ({
          group: `Group ${g}`,
          pages: Array.from({ length: PAGES / 20 }, (_, i) => `section${g}/page${i}`),
        })),
      },
    }),
  },
  ...Array.from({ length: PAGES }, (_, i) => ({
    path: `section${i % 20}/page${Math.floor(i / 20)}.md`,
    text: `# ${sentence(4)}\n\n${Array.from({ length: 12 }, () => sentence(25)).join('.\n\n')}.\n`,
  })),
];

async function main() {
  let start = performance.now();
  const site = buildDocsSite({ sha: 'bench', files });
  const buildMs = performance.now() - start;
  const server = docsMcpServer({ name: 'bench docs', site: async () => site, onRead: async () => {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  const queries = Array.from({ length: CALLS }, () => sentence(1 + Math.floor(rand() * 4)));
  for (const query of queries.slice(0, 20)) await client.callTool({ name: 'search_docs', arguments: { query } });
  const times = new Float64Array(CALLS);
  let hits = 0;
  for (let i = 0; i < CALLS; i++) {
    start = performance.now();
    const result = (await client.callTool({ name: 'search_docs', arguments: { query: queries[i] } })) as {
      structuredContent?: { results: unknown[] };
    };
    times[i] = performance.now() - start;
    hits += result.structuredContent?.results.length ?? 0;
  }
  times.sort();
  const pct = (p: number) => times[Math.min(CALLS - 1, Math.floor((CALLS - 1) * p))].toFixed(2);
  console.log(
    `${PAGES} pages (${site.pages.size} indexed, ${(files.reduce((n, f) => n + f.text.length, 0) / 1e6).toFixed(1)} MB) built in ${buildMs.toFixed(0)} ms; search_docs over ${CALLS} calls: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, ${(hits / CALLS).toFixed(1)} results a call`,
  );
  await client.close();
}

await main();
