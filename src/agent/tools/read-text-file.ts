import fs from 'node:fs/promises';
import type { WorkspacePath } from '../resolve-workspace-path.js';
import { ToolError } from './tool-context.js';

/** Read a vetted path as UTF-8 text; binary files are refused rather than fed to the model as garbage. */
export async function readTextFile(target: WorkspacePath): Promise<string> {
  const stat = await fs.stat(target.absolute);
  if (stat.isDirectory()) throw new ToolError(`${target.relative} is a directory.`);
  const text = await fs.readFile(target.absolute, 'utf8');
  if (text.includes('\0'))
    throw new ToolError(`${target.relative} is a binary file; only text files can be viewed or edited.`);
  return text;
}
