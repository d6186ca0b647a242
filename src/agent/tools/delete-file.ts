import fs from 'node:fs/promises';
import { z } from 'zod';
import { resolveWorkspacePath } from '../resolve-workspace-path.js';
import { defineTool } from './define-tool.js';
import { rememberOriginal, ToolError, type ToolContext, type ToolOutcome } from './tool-context.js';

const input = z.object({ path: z.string().min(1).describe('File to delete, relative to the repository root.') });

export async function deleteFile(args: z.infer<typeof input>, context: ToolContext): Promise<ToolOutcome> {
  const target = await resolveWorkspacePath(context.workspaceDir, args.path, { limits: context.sizeLimits });
  if (!target.exists) throw new ToolError(`${args.path} does not exist.`);
  if ((await fs.stat(target.absolute)).isDirectory())
    throw new ToolError(`${target.relative} is a directory; delete the files in it one by one.`);
  await rememberOriginal(context, target);
  await fs.unlink(target.absolute);
  return { path: target.relative, content: `Deleted ${target.relative}.` };
}

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description:
    'Delete one file from the repository. Remember to update links and navigation entries that pointed at it.',
  input,
  run: deleteFile,
});
