import fs from 'node:fs/promises';
import path from 'node:path';
import { cloneRepository, createWorkspaceDir, removeWorkspace } from '../git/workspace.js';
import { detectDocsFramework, readWorkspaceText } from '../agent/detect-docs-framework.js';
import type { DocsPage } from './local-impact.js';

const PAGE = /\.mdx?$/i;
const OPENAPI = /(^|\/)(openapi|swagger)[^/]*\.(json|ya?ml)$/i;
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.scribe', '.docusaurus', 'build', 'site']);
/** a page bigger than this is generated, not written; it is left out rather than slowing every review */
const MAX_PAGE_BYTES = 1024 * 1024;

/** Why the docs could not be read for a review: said on the check, which concludes neutral. */
export class DocsUnreadable extends Error {}

/**
 * The docs repository's pages at `ref`: every `.md`/`.mdx` file under the detected framework's docs root, plus the
 * OpenAPI files the Mintlify config names and any `openapi*`/`swagger*` file there. Read from a shallow clone that is
 * removed afterwards. A Mintlify config that is not JSON is the docs config broken: DocsUnreadable says so.
 */
export async function readDocsPages(params: {
  url: string;
  ref: string;
  token: string;
}): Promise<{ pages: DocsPage[] }> {
  const dir = await createWorkspaceDir();
  try {
    await cloneRepository({
      url: params.url,
      ref: params.ref,
      dir,
      token: params.token,
      // nothing is committed in a review's clone
      identity: { name: 'scribe', email: 'scribe@localhost' },
    });
    const layout = await detectDocsFramework(dir);
    const named = new Set<string>();
    if (layout.framework === 'mintlify' && layout.configPath) {
      const text = (await readWorkspaceText(dir, layout.configPath)) ?? '';
      let config: unknown;
      try {
        config = JSON.parse(text);
      } catch (err) {
        throw new DocsUnreadable(`the docs config ${layout.configPath} is not valid JSON (${(err as Error).message})`);
      }
      for (const file of openApiFiles(config)) named.add(path.posix.join(layout.docsRoot, file.replace(/^\//, '')));
    }
    const pages: DocsPage[] = [];
    for (const file of await walk(dir, layout.docsRoot)) {
      if (!PAGE.test(file) && !OPENAPI.test(file) && !named.has(file)) continue;
      const text = await readWorkspaceText(dir, file);
      if (text !== undefined && text.length <= MAX_PAGE_BYTES) pages.push({ path: file, text });
    }
    return { pages };
  } finally {
    await removeWorkspace(dir);
  }
}

/** `openapi` of a Mintlify config (a path, a list of them, or URLs, which are not files of the repository). */
function openApiFiles(config: unknown): string[] {
  const value = (config as { openapi?: unknown })?.openapi;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === 'string' && !/^https?:\/\//.test(v));
}

async function walk(root: string, start: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (rel: string) => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await visit(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await visit(start);
  return found.sort();
}
