import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  DEFAULT_AGENT_LIMITS,
  runAgent,
  type AgentEvent,
  type AgentLimits,
  type AgentResult,
} from '../../src/agent/run-agent.js';
import type { AnthropicStandIn } from './anthropic-server.js';

/** A throwaway directory holding `files` (path → content), under a parent that also gets an outside file. */
export async function makeWorkspace(
  files: Record<string, string>,
): Promise<{ dir: string; outside: string; parent: string; cleanup: () => Promise<void> }> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'scribe-agent-'));
  const dir = path.join(parent, 'repo');
  await fs.mkdir(path.join(dir, '.git'), { recursive: true });
  await fs.writeFile(path.join(dir, '.git', 'config'), '[core]\n');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  const outside = path.join(parent, 'outside.txt');
  await fs.writeFile(outside, 'secret outside the workspace\n');
  return { dir, outside, parent, cleanup: () => fs.rm(parent, { recursive: true, force: true }) };
}

/** Every file under dir (except .git) with its content, for exact before/after comparisons. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(rel: string): Promise<void> {
    for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) out[child] = await fs.readFile(path.join(dir, child), 'utf8');
    }
  }
  await walk('');
  return out;
}

export interface AgentRun {
  result?: AgentResult;
  error?: unknown;
  events: AgentEvent[];
}

export async function runAgainst(params: {
  standIn: AnthropicStandIn;
  workspaceDir: string;
  instructions?: string[];
  context?: string;
  limits?: Partial<AgentLimits>;
  signal?: AbortSignal;
  maxRetries?: number;
  onEvent?: (event: AgentEvent) => void;
}): Promise<AgentRun> {
  const client = new Anthropic({
    apiKey: 'test-key',
    baseURL: params.standIn.url,
    ...(params.maxRetries !== undefined && { maxRetries: params.maxRetries }),
  });
  const events: AgentEvent[] = [];
  try {
    const result = await runAgent({
      workspaceDir: params.workspaceDir,
      instructions: params.instructions ?? ['Fix the typo in the introduction.'],
      context: params.context,
      model: 'claude-test',
      client,
      limits: { ...DEFAULT_AGENT_LIMITS, ...params.limits },
      signal: params.signal ?? new AbortController().signal,
      onEvent: (event) => {
        events.push(event);
        params.onEvent?.(event);
      },
    });
    return { result, events };
  } catch (error) {
    return { error, events };
  }
}

/** A content block without its prompt-cache marker, so tests can compare what the model reads. */
function uncached<T>(block: T): T {
  const { cache_control: _ignored, ...rest } = block as T & { cache_control?: unknown };
  return rest as T;
}

/** The tool_result blocks the agent sent in a recorded request's last message. */
export function toolResultsOf(request: { body: any }): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const last = request.body.messages.at(-1);
  return Array.isArray(last.content) ? last.content.filter((b: any) => b.type === 'tool_result').map(uncached) : [];
}

/** The system prompt text of a recorded request (sent as cache-marked text blocks). */
export function systemOf(request: { body: any }): string {
  const { system } = request.body;
  return typeof system === 'string' ? system : system.map((b: { text: string }) => b.text).join('\n');
}

/** The text of a recorded request's message at `index` (string or text blocks). */
export function messageText(request: { body: any }, index: number): string {
  const { content } = request.body.messages.at(index);
  return typeof content === 'string'
    ? content
    : content
        .filter((b: any) => b.type === 'text')
        .map((b: any) => b.text)
        .join('\n');
}
