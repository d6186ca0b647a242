import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { resolveWorkspacePath } from '../resolve-workspace-path.js';
import { defineTool } from './define-tool.js';
import { rememberOriginal, ToolError, type ToolContext, type ToolOutcome } from './tool-context.js';

const input = z.object({
  from: z.string().min(1).describe('Existing file, relative to the repository root.'),
  to: z.string().min(1).describe('New path, relative to the repository root; must not exist yet.'),
});

export async function moveFile(args: z.infer<typeof input>, context: ToolContext): Promise<ToolOutcome> {
  const from = await resolveWorkspacePath(context.workspaceDir, args.from, { limits: context.sizeLimits });
  const to = await resolveWorkspacePath(context.workspaceDir, args.to, { limits: context.sizeLimits });
  if (!from.exists) throw new ToolError(`${args.from} does not exist.`);
  if ((await fs.stat(from.absolute)).isDirectory())
    throw new ToolError(`${from.relative} is a directory; move the files in it one by one.`);
  if (to.exists) throw new ToolError(`${to.relative} already exists; delete it first if it should be replaced.`);
  await rememberOriginal(context, from);
  await rememberOriginal(context, to);
  await fs.mkdir(path.dirname(to.absolute), { recursive: true });
  await fs.rename(from.absolute, to.absolute);
  return { path: `${from.relative} -> ${to.relative}`, content: `Moved ${from.relative} to ${to.relative}.` };
}

export const moveFileTool = defineTool({
  name: 'move_file',
  description:
    'Move or rename one file inside the repository. Remember to update links and navigation entries that pointed at the old path.',
  input,
  run: moveFile,
});
