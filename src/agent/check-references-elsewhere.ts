import { PAGE } from './check-changed-pages.js';
import type { CheckContext } from './check-context.js';
import { importProblem, linkProblem } from './check-link.js';
import pLimit from 'p-limit';
import { scanLinks } from './scan-links.js';
import { walkWorkspace } from './tools/walk-workspace.js';

/** Reads in flight at once: one at a time spends most of the time waiting on each file in turn. */
const READ_CONCURRENCY = 32;

async function fileProblems(context: CheckContext, file: string): Promise<string[]> {
  const text = await context.read(file);
  if (text === undefined) return [];
  const problems: string[] = [];
  const { links, imports } = scanLinks(text, context.site.format(file));
  for (const link of links) {
    const problem = await linkProblem(context, file, link, false);
    if (problem) problems.push(problem);
  }
  for (const specifier of imports) {
    const problem = await importProblem(context, file, specifier, false);
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Links and imports in pages the agent did not touch that led to a file it deleted or moved, or to a
 * heading it removed or renamed. Every built page is read, so this runs only when something was removed.
 */
export async function checkReferencesElsewhere(context: CheckContext): Promise<string[]> {
  const { workspaceDir, site, originals } = context;
  const files: string[] = [];
  for await (const entry of walkWorkspace(workspaceDir, '', { maxEntries: 20_000 })) {
    if (
      !entry.isDirectory &&
      PAGE.test(entry.relative) &&
      !originals.has(entry.relative) &&
      site.builds(entry.relative)
    )
      files.push(entry.relative);
  }
  return (await pLimit(READ_CONCURRENCY).map(files, (file) => fileProblems(context, file))).flat();
}
