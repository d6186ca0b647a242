import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';
import { resolveWorkspacePath } from '../resolve-workspace-path.js';
import { rememberOriginal, ToolError, type ToolContext, type ToolOutcome } from './tool-context.js';
import { walkWorkspace } from './walk-workspace.js';
import { readTextFile } from './read-text-file.js';

/** Anthropic's client-side text editor tool: the API knows its schema, we execute its commands. */
export const textEditorTool: Anthropic.ToolTextEditor20250728 = {
  type: 'text_editor_20250728',
  name: 'str_replace_based_edit_tool',
};

const filePath = z.string({ error: 'path is required' });
export const textEditorInput = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('view'),
    path: filePath,
    view_range: z.tuple([z.number().int(), z.number().int()]).optional(),
  }),
  z.object({ command: z.literal('create'), path: filePath, file_text: z.string({ error: 'file_text is required' }) }),
  z.object({
    command: z.literal('str_replace'),
    path: filePath,
    old_str: z.string({ error: 'old_str is required' }),
    new_str: z.string().optional(),
  }),
  // The 2025-07-28 tool sends `insert_text`; earlier versions sent `new_str`.
  z.object({
    command: z.literal('insert'),
    path: filePath,
    insert_line: z.number().int().min(0),
    insert_text: z.string().optional(),
    new_str: z.string().optional(),
  }),
]);
export type TextEditorInput = z.infer<typeof textEditorInput>;

const numbered = (lines: string[], first: number) =>
  lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');

async function view(input: Extract<TextEditorInput, { command: 'view' }>, context: ToolContext): Promise<ToolOutcome> {
  const target = await resolveWorkspacePath(context.workspaceDir, input.path, {
    read: true,
    allowRoot: true,
    limits: context.sizeLimits,
  });
  if (!target.exists) throw new ToolError(`${input.path} does not exist.`);
  const shown = target.relative || '.';
  if ((await fs.stat(target.absolute)).isDirectory()) {
    const lines: string[] = [];
    for await (const entry of walkWorkspace(target.absolute, target.relative, {
      maxDepth: 2,
      skipHidden: true,
      maxEntries: 1000,
    })) {
      lines.push(entry.isDirectory ? `${entry.relative}/` : entry.relative);
    }
    return {
      path: shown,
      content: `Files and directories up to 2 levels deep in ${shown}, excluding hidden items and node_modules:\n${lines.join('\n')}`,
    };
  }
  const lines = (await readTextFile(target)).split('\n');
  if (!input.view_range) return { path: shown, content: numbered(lines, 1) };
  const [start, rawEnd] = input.view_range;
  const end = rawEnd === -1 ? lines.length : rawEnd;
  if (start < 1 || start > lines.length || end < start || end > lines.length) {
    throw new ToolError(
      `Invalid view_range [${start}, ${rawEnd}]: ${shown} has ${lines.length} lines; use 1-based [start, end] with end -1 for the end of the file.`,
    );
  }
  return { path: shown, content: numbered(lines.slice(start - 1, end), start) };
}

async function create(
  input: Extract<TextEditorInput, { command: 'create' }>,
  context: ToolContext,
): Promise<ToolOutcome> {
  const target = await resolveWorkspacePath(context.workspaceDir, input.path, {
    writeBytes: Buffer.byteLength(input.file_text),
    limits: context.sizeLimits,
  });
  if (target.exists && (await fs.stat(target.absolute)).isDirectory())
    throw new ToolError(`${target.relative} is a directory.`);
  await rememberOriginal(context, target);
  await fs.mkdir(path.dirname(target.absolute), { recursive: true });
  await fs.writeFile(target.absolute, input.file_text);
  return { path: target.relative, content: `${target.exists ? 'Overwrote' : 'Created'} ${target.relative}.` };
}

/** Read, transform and write back a file that must already exist, within both size limits. */
async function rewrite(context: ToolContext, requested: string, transform: (text: string) => string): Promise<string> {
  const target = await resolveWorkspacePath(context.workspaceDir, requested, {
    read: true,
    limits: context.sizeLimits,
  });
  if (!target.exists) throw new ToolError(`${requested} does not exist; use the create command for new files.`);
  const after = transform(await readTextFile(target));
  await resolveWorkspacePath(context.workspaceDir, requested, {
    writeBytes: Buffer.byteLength(after),
    limits: context.sizeLimits,
  });
  await rememberOriginal(context, target);
  await fs.writeFile(target.absolute, after);
  return target.relative;
}

async function strReplace(
  input: Extract<TextEditorInput, { command: 'str_replace' }>,
  context: ToolContext,
): Promise<ToolOutcome> {
  if (input.old_str === '') throw new ToolError('old_str must not be empty.');
  const relative = await rewrite(context, input.path, (text) => {
    let oldStr = input.old_str;
    let newStr = input.new_str ?? '';
    // The model writes \n; a file checked out with Windows line endings would otherwise never match.
    if (!text.includes(oldStr) && text.includes('\r\n') && oldStr.includes('\n')) {
      oldStr = oldStr.replace(/\r?\n/g, '\r\n');
      newStr = newStr.replace(/\r?\n/g, '\r\n');
    }
    const count = text.split(oldStr).length - 1;
    if (count === 0)
      throw new ToolError(
        `No match for old_str in ${input.path}. It must match exactly, including whitespace and indentation; view the file first.`,
      );
    if (count > 1)
      throw new ToolError(
        `old_str matches ${count} places in ${input.path}; include more surrounding text so it matches exactly one.`,
      );
    const at = text.indexOf(oldStr);
    return text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  });
  return { path: relative, content: `Replaced one occurrence in ${relative}.` };
}

async function insert(
  input: Extract<TextEditorInput, { command: 'insert' }>,
  context: ToolContext,
): Promise<ToolOutcome> {
  const inserted = input.insert_text ?? input.new_str;
  if (inserted === undefined) throw new ToolError('insert_text is required.');
  const relative = await rewrite(context, input.path, (text) => {
    const lines = text.split('\n');
    if (input.insert_line > lines.length)
      throw new ToolError(`insert_line ${input.insert_line} is past the end of ${input.path} (${lines.length} lines).`);
    lines.splice(input.insert_line, 0, ...inserted.split('\n'));
    return lines.join('\n');
  });
  return { path: relative, content: `Inserted text after line ${input.insert_line} of ${relative}.` };
}

export async function runTextEditor(input: TextEditorInput, context: ToolContext): Promise<ToolOutcome> {
  switch (input.command) {
    case 'view':
      return view(input, context);
    case 'create':
      return create(input, context);
    case 'str_replace':
      return strReplace(input, context);
    case 'insert':
      return insert(input, context);
  }
}
