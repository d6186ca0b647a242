import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { z } from 'zod';
import { WorkspacePathError } from '../resolve-workspace-path.js';
import { deleteFileTool } from './delete-file.js';
import { listFilesTool } from './list-files.js';
import { moveFileTool } from './move-file.js';
import { searchFilesTool } from './search-files.js';
import { runTextEditor, textEditorInput, textEditorTool } from './text-editor.js';
import { ToolError, type ToolContext } from './tool-context.js';
import type { CustomTool } from './define-tool.js';

// biome-ignore lint/suspicious/noExplicitAny: each tool has its own input type; the list only needs their definitions
const customTools: CustomTool<any>[] = [listFilesTool, searchFilesTool, deleteFileTool, moveFileTool];

/** Everything the model may call, in the shape the Messages API expects. */
export const agentTools: Anthropic.ToolUnion[] = [textEditorTool, ...customTools.map((tool) => tool.definition)];

export interface ToolCallResult {
  ok: boolean;
  /** What the model sees in the tool_result. */
  content: string;
  command?: string;
  path?: string;
}

function invalidInput(error: z.ZodError): ToolError {
  return new ToolError(
    `Invalid input: ${error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
  );
}

const SOURCE_PREFIX = 'source:';
const READ_ONLY_COMMANDS = new Set(['view']);

function textEditorCommand(call: { name: string; input: unknown }): string | undefined {
  return call.name === textEditorTool.name && typeof call.input === 'object' && call.input !== null
    ? String((call.input as { command?: unknown }).command)
    : undefined;
}

/**
 * A call naming a `source:` path runs against the read-only source tree, through the same tools and the same path
 * function, with that tree as its workspace; a write there (or one mixing both trees) comes back as a refusal.
 * Returns null for a call on the docs tree.
 */
function routeToSource(
  call: { name: string; input: unknown },
  context: ToolContext,
): { call: { name: string; input: unknown }; context: ToolContext } | ToolError | null {
  if (typeof call.input !== 'object' || call.input === null) return null;
  const input = call.input as Record<string, unknown>;
  const fields = ['path', 'from', 'to'].filter(
    (key) => typeof input[key] === 'string' && (input[key] as string).startsWith(SOURCE_PREFIX),
  );
  if (!fields.length) return null;
  if (!context.sourceDir)
    return new ToolError('There is no source repository in this run; paths starting with "source:" name nothing.');
  const command = textEditorCommand(call);
  const reads =
    call.name === textEditorTool.name
      ? READ_ONLY_COMMANDS.has(command ?? '')
      : call.name === 'list_files' || call.name === 'search_files';
  if (!reads)
    return new ToolError(
      `The source repository is read-only: ${call.name}${command ? ` ${command}` : ''} on ${String(input[fields[0]])} is refused. Write only to the documentation repository (paths without "source:").`,
    );
  const stripped = { ...input, path: (input.path as string).slice(SOURCE_PREFIX.length) || '.' };
  // Edits are never recorded against the source tree: a read-only context has nothing to remember.
  return {
    call: { name: call.name, input: stripped },
    context: { ...context, workspaceDir: context.sourceDir, sourceDir: undefined, originals: new Map() },
  };
}

function requestedPath(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { path, from, to } = input as Record<string, unknown>;
  if (typeof path === 'string') return path;
  if (typeof from === 'string') return typeof to === 'string' ? `${from} -> ${to}` : from;
  return undefined;
}

/**
 * Execute one tool_use block. Failures never escape: a refused path, a missing match or an unexpected
 * file-system error all come back as `ok: false` so the model can correct itself.
 */
export async function runTool(call: { name: string; input: unknown }, context: ToolContext): Promise<ToolCallResult> {
  const routed = routeToSource(call, context);
  if (routed instanceof ToolError)
    return { ok: false, content: routed.message, command: textEditorCommand(call), path: requestedPath(call.input) };
  if (routed) {
    const result = await runTool(routed.call, routed.context);
    return {
      ...result,
      path: result.path === undefined ? undefined : `${SOURCE_PREFIX}${result.path === '.' ? '' : result.path}`,
    };
  }
  const { name, input } = call;
  const command =
    name === textEditorTool.name && typeof input === 'object' && input !== null
      ? String((input as { command?: unknown }).command)
      : undefined;
  try {
    if (name === textEditorTool.name) {
      const parsed = textEditorInput.safeParse(input);
      if (!parsed.success) {
        if (command && !['view', 'create', 'str_replace', 'insert'].includes(command))
          throw new ToolError(`Unsupported command "${command}"; use view, create, str_replace or insert.`);
        throw invalidInput(parsed.error);
      }
      const outcome = await runTextEditor(parsed.data, context);
      return { ok: true, content: outcome.content, command, path: outcome.path };
    }
    const tool = customTools.find((t) => t.definition.name === name);
    if (!tool) throw new ToolError(`Unknown tool "${name}".`);
    const parsed = tool.input.safeParse(input);
    if (!parsed.success) throw invalidInput(parsed.error);
    const outcome = await tool.run(parsed.data, context);
    return { ok: true, content: outcome.content, path: outcome.path };
  } catch (error) {
    const known = error instanceof ToolError || error instanceof WorkspacePathError;
    // Unexpected file-system errors name absolute paths; the model only knows repository-relative ones.
    const raw = error instanceof Error ? error.message : String(error);
    const message = known ? raw : `The operation failed: ${raw.split(`${context.workspaceDir}${path.sep}`).join('')}`;
    return { ok: false, content: message, command, path: requestedPath(input) };
  }
}
