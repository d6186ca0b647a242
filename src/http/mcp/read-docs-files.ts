import fs from 'node:fs/promises';
import path from 'node:path';
import { checkoutCommit, createWorkspaceDir, removeWorkspace } from '../../git/workspace.js';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const SERVED = /(\.mdx?|^docs\.json|^mint\.json)$/i;
/** a page bigger than this is generated, not written */
const MAX_FILE_BYTES = 1024 * 1024;
/** a site past this many pages is not served whole */
const MAX_FILES = 20_000;

/**
 * The Markdown pages and navigation config of a docs repository at `sha`, from a shallow clone removed afterwards.
 * Symlinks are never followed (the walk lists regular files only), so nothing outside the clone is read.
 */
export async function readDocsFiles(params: {
  url: string;
  sha: string;
  token: string;
}): Promise<{ path: string; text: string }[]> {
  const dir = await createWorkspaceDir();
  try {
    await checkoutCommit({ url: params.url, sha: params.sha, dir, token: params.token });
    const files: { path: string; text: string }[] = [];
    const visit = async (rel: string) => {
      for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await visit(child);
        else if (entry.isFile() && SERVED.test(child) && files.length < MAX_FILES) {
          const buffer = await fs.readFile(path.join(dir, child));
          if (buffer.length <= MAX_FILE_BYTES) files.push({ path: child, text: buffer.toString('utf8') });
        }
      }
    };
    await visit('');
    return files;
  } finally {
    await removeWorkspace(dir);
  }
}
