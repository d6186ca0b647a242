import picomatch from 'picomatch';
import { z } from 'zod';
import { resolveWorkspacePath } from '../resolve-workspace-path.js';
import { defineTool } from './define-tool.js';
import { ToolError, type ToolContext, type ToolOutcome } from './tool-context.js';
import { walkWorkspace } from './walk-workspace.js';

const MAX_LISTED = 500;

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob matched against paths relative to the repository root, e.g. "docs/**/*.mdx" or "**/*.md".'),
  path: z.string().optional().describe('Directory to list below (relative to the repository root); default the root.'),
});

export async function listFiles(args: z.infer<typeof input>, context: ToolContext): Promise<ToolOutcome> {
  const dir = await resolveWorkspacePath(context.workspaceDir, args.path ?? '.', {
    allowRoot: true,
    limits: context.sizeLimits,
  });
  if (!dir.exists) throw new ToolError(`${args.path} does not exist.`);
  const matches = picomatch(args.pattern, { dot: true });
  const found: string[] = [];
  for await (const entry of walkWorkspace(dir.absolute, dir.relative)) {
    if (!entry.isDirectory && matches(entry.relative)) found.push(entry.relative);
  }
  found.sort();
  const shown = found.slice(0, MAX_LISTED);
  const more = found.length > MAX_LISTED ? `\n(${found.length - MAX_LISTED} more not shown; narrow the pattern)` : '';
  return {
    path: dir.relative || '.',
    content: found.length === 0 ? `No files match ${args.pattern}.` : shown.join('\n') + more,
  };
}

export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List files in the repository whose path matches a glob. Paths are relative to the repository root; .git and node_modules are never listed. A path starting with "source:" lists the read-only source repository, when the run has one.',
  input,
  run: listFiles,
});
