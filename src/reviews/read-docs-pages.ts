import fs from 'node:fs/promises';
import path from 'node:path';
import { checkoutCommit, createWorkspaceDir, removeWorkspace } from '../git/workspace.js';
import { readWorkspaceText } from '../agent/detect-docs-framework.js';
import pLimit from 'p-limit';
import { DOCS_CONFIG_FILES, docsPagesToRead } from './impact/docs-pages-to-read.js';
import type { DocsPage } from './impact/find-impact.js';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
/** a page bigger than this is generated, not written; it is left out rather than slowing every review */
const MAX_PAGE_BYTES = 1024 * 1024;
const READ_CONCURRENCY = 32;

/** Why the docs could not be read for a review: said on the check, which concludes neutral. */
export class DocsUnreadable extends Error {}

/**
 * The docs repository's pages at commit `sha`, as impact/docs-pages-to-read.ts chooses them (every `.md`/`.mdx` page under
 * the detected framework's docs root, and the OpenAPI files), read from a shallow clone removed afterwards. A Mintlify
 * config that is not JSON is the docs config broken: DocsUnreadable says so, rather than a review of no pages.
 */
export async function readDocsPages(params: { url: string; sha: string; token: string }): Promise<DocsPage[]> {
  const dir = await createWorkspaceDir();
  try {
    await checkoutCommit({ url: params.url, sha: params.sha, dir, token: params.token });
    const paths = await walk(dir);
    const configs = new Map<string, string>();
    for (const file of DOCS_CONFIG_FILES) {
      const text = await readWorkspaceText(dir, file);
      if (text !== undefined) configs.set(file, text);
    }
    const { layout, pages } = docsPagesToRead({ paths, configs });
    if (layout.framework === 'mintlify' && layout.configPath) {
      try {
        JSON.parse(configs.get(layout.configPath) ?? '');
      } catch (err) {
        throw new DocsUnreadable(`the docs config ${layout.configPath} is not valid JSON (${(err as Error).message})`);
      }
    }
    // the walk lists regular files of the clone only (symlinks are not files there), so they are read directly
    const read = await pLimit(READ_CONCURRENCY).map(pages, async (file) => {
      const buffer = await fs.readFile(path.join(dir, file));
      return buffer.length <= MAX_PAGE_BYTES ? { path: file, text: buffer.toString('utf8') } : null;
    });
    return read.filter((page): page is DocsPage => page !== null);
  } finally {
    await removeWorkspace(dir);
  }
}

/** Every file of the clone, relative, with forward slashes (symlinks are not followed). */
async function walk(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (rel: string) => {
    for (const entry of await fs.readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await visit(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await visit('');
  return found.sort();
}
