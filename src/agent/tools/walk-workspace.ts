import fs from 'node:fs/promises';
import path from 'node:path';

export interface WalkEntry {
  /** Relative to the workspace root, `/`-separated. */
  relative: string;
  isDirectory: boolean;
  depth: number;
}

export interface WalkOptions {
  /** 1 = only the directory's own entries. */
  maxDepth?: number;
  skipHidden?: boolean;
  /** Stop after this many entries, so a huge repository cannot stall a turn. */
  maxEntries?: number;
}

/** Never worth the model's attention, and `.git` is off limits anyway. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Breadth-first walk below a directory already vetted by resolveWorkspacePath. Symbolic links are not
 * followed (they may point outside the workspace); readers still vet each file they open.
 */
export async function* walkWorkspace(
  absoluteDir: string,
  relativeDir: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Infinity;
  let budget = options.maxEntries ?? 50_000;
  const queue: { abs: string; rel: string; depth: number }[] = [{ abs: absoluteDir, rel: relativeDir, depth: 1 }];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    const entries = await fs.readdir(dir.abs, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name) || (options.skipHidden && entry.name.startsWith('.'))) continue;
      if (!entry.isDirectory() && !entry.isFile()) continue;
      if (budget-- <= 0) return;
      const rel = dir.rel ? `${dir.rel}/${entry.name}` : entry.name;
      yield { relative: rel, isDirectory: entry.isDirectory(), depth: dir.depth };
      if (entry.isDirectory() && dir.depth < maxDepth)
        queue.push({ abs: path.join(dir.abs, entry.name), rel, depth: dir.depth + 1 });
    }
  }
}
