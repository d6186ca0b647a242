import { readFile } from 'node:fs/promises';
import vm from 'node:vm';
import picomatch from 'picomatch';
import { z } from 'zod';
import { resolveWorkspacePath, WorkspacePathError } from '../resolve-workspace-path.js';
import { defineTool } from './define-tool.js';
import { ToolError, type ToolContext, type ToolOutcome } from './tool-context.js';
import { walkWorkspace } from './walk-workspace.js';

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
/** The model writes the regex: a catastrophic one must not freeze the process (and with it, aborts). */
const SEARCH_TIME_BUDGET_MS = 2_000;

const input = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression searched for in each line.'),
  glob: z.string().optional().describe('Only search files whose path matches this glob, e.g. "**/*.mdx".'),
  path: z.string().optional().describe('Directory to search below; default the repository root.'),
  case_insensitive: z.boolean().optional(),
});

/** Runs the line matching in a vm context so a runaway regex is interrupted by the timeout. */
const matchLines = new vm.Script('lines.flatMap((line, i) => (re.lastIndex = 0, re.test(line) ? [i] : []))');

export async function searchFiles(args: z.infer<typeof input>, context: ToolContext): Promise<ToolOutcome> {
  let re: RegExp;
  try {
    re = new RegExp(args.pattern, args.case_insensitive ? 'i' : '');
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${(error as Error).message}`);
  }
  const dir = await resolveWorkspacePath(context.workspaceDir, args.path ?? '.', {
    allowRoot: true,
    limits: context.sizeLimits,
  });
  if (!dir.exists) throw new ToolError(`${args.path} does not exist.`);
  const inGlob = args.glob ? picomatch(args.glob, { dot: true }) : () => true;
  const sandbox = vm.createContext({ re, lines: [] as string[] });
  const deadline = Date.now() + SEARCH_TIME_BUDGET_MS;
  const results: string[] = [];
  let total = 0;
  for await (const entry of walkWorkspace(dir.absolute, dir.relative)) {
    if (entry.isDirectory || !inGlob(entry.relative)) continue;
    const text = await readForSearch(context, entry.relative);
    if (text === undefined) continue;
    sandbox.lines = text.split('\n');
    let hits: number[];
    try {
      hits = matchLines.runInContext(sandbox, { timeout: Math.max(1, deadline - Date.now()) }) as number[];
    } catch {
      throw new ToolError(
        `The search took longer than ${SEARCH_TIME_BUDGET_MS} ms; use a simpler pattern or narrow it with glob/path.`,
      );
    }
    total += hits.length;
    for (const i of hits) {
      if (results.length < MAX_MATCHES)
        results.push(`${entry.relative}:${i + 1}: ${sandbox.lines[i].slice(0, MAX_LINE_CHARS)}`);
    }
  }
  if (total === 0) return { path: dir.relative || '.', content: `No matches for /${args.pattern}/.` };
  const more = total > results.length ? `\n(${total - results.length} more matches not shown; narrow the search)` : '';
  return { path: dir.relative || '.', content: results.join('\n') + more };
}

/** Files that are too large, binary or refused by the path check are skipped, not fatal to the search. */
async function readForSearch(context: ToolContext, relative: string): Promise<string | undefined> {
  try {
    const target = await resolveWorkspacePath(context.workspaceDir, relative, {
      read: true,
      limits: context.sizeLimits,
    });
    const text = await readFile(target.absolute, 'utf8');
    return text.includes('\0') ? undefined : text;
  } catch (error) {
    if (error instanceof WorkspacePathError) return undefined;
    throw error;
  }
}

export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search file contents with a regular expression. Returns matching lines as "path:line: text" (paths relative to the repository root). A path starting with "source:" searches the read-only source repository, when the run has one.',
  input,
  run: searchFiles,
});
