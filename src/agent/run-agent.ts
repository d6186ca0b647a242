import type Anthropic from '@anthropic-ai/sdk';
import { AGENT_LIMIT_DEFAULTS } from '../config.js';
import { AgentError } from './agent-error.js';
import { withCacheBreakpoints } from './cache-breakpoints.js';
import { checkEdits } from './check-edits.js';
import { gatherRepositoryFacts } from './gather-repository-facts.js';
import { mapApiError, stoppedByCaller, wallTimeExceeded } from './map-api-error.js';
import { DEFAULT_FILE_SIZE_LIMITS, type FileSizeLimits } from './resolve-workspace-path.js';
import { summarizeResult } from './summarize-result.js';
import { buildSystemPrompt } from './system-prompt.js';
import { buildTaskMessage } from './task-message.js';
import { agentTools, runTool } from './tools/run-tool.js';
import type { ToolContext } from './tools/tool-context.js';
import type { AgentEvent, AgentLimits, AgentResult, AgentRunParams, TokenUsage } from './types.js';

export { AgentError } from './agent-error.js';
export type { AgentEvent, AgentLimits, AgentResult, AgentRunParams, AgentErrorReason } from './types.js';

/** The limits config.ts gives a run when the environment sets none. */
export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxTurns: AGENT_LIMIT_DEFAULTS.maxTurns,
  maxOutputTokensPerTurn: AGENT_LIMIT_DEFAULTS.maxOutputTokensPerTurn,
  maxTotalTokens: AGENT_LIMIT_DEFAULTS.maxTotalTokens,
  maxWallMs: AGENT_LIMIT_DEFAULTS.timeoutSeconds * 1000,
  maxRepairRounds: AGENT_LIMIT_DEFAULTS.maxRepairRounds,
};

/** A model that keeps hitting max_tokens is not converging; stop rather than burn the budget. */
const MAX_CONSECUTIVE_MAX_TOKENS = 3;
/** The SDK refuses non-streaming requests it expects to run past 10 minutes (about 21k output tokens). */
const MAX_NON_STREAMING_TOKENS = 16_384;
/** Tool output goes back into the context window on every later turn; keep any one result bounded. */
const MAX_TOOL_RESULT_CHARS = 60_000;

type Block = Anthropic.ContentBlock;
type ToolResult = Anthropic.ToolResultBlockParam;

interface Run {
  params: AgentRunParams;
  signal: AbortSignal;
  deadline: AbortSignal;
  usage: TokenUsage;
  turns: number;
  tools: ToolContext;
}

/** Throw if the caller aborted or the wall-time limit passed: checked between every step. */
function checkStopped(run: Run): void {
  if (run.params.signal.aborted) throw stoppedByCaller();
  if (run.deadline.aborted) throw wallTimeExceeded(run.params.limits);
}

function checkBudget(run: Run): void {
  const { maxTurns, maxTotalTokens } = run.params.limits;
  if (run.turns >= maxTurns) {
    throw new AgentError(
      `The agent used its limit of ${maxTurns} model turns without finishing; split the request into smaller tasks or raise the turn limit (SCRIBE_MAX_TURNS).`,
      'limits',
    );
  }
  const used = run.usage.inputTokens + run.usage.outputTokens;
  if (used >= maxTotalTokens) {
    throw new AgentError(
      `The agent used ${used} tokens, over its limit of ${maxTotalTokens}, without finishing; split the request into smaller tasks or raise the token limit (SCRIBE_MAX_TOKENS).`,
      'limits',
    );
  }
}

async function callModel(run: Run, system: string, messages: Anthropic.MessageParam[]): Promise<Anthropic.Message> {
  const { client, model, limits } = run.params;
  try {
    const body = {
      model,
      max_tokens: limits.maxOutputTokensPerTurn,
      tools: agentTools,
      ...withCacheBreakpoints(system, messages),
    };
    if (body.max_tokens > MAX_NON_STREAMING_TOKENS)
      return await client.messages.stream(body, { signal: run.signal }).finalMessage();
    return await client.messages.create(body, { signal: run.signal });
  } catch (error) {
    throw mapApiError(error, {
      aborted: run.params.signal.aborted,
      timedOut: run.deadline.aborted,
      attempts: client.maxRetries + 1,
      limits,
    });
  }
}

function clipToolOutput(content: string): string {
  if (content.length <= MAX_TOOL_RESULT_CHARS) return content;
  return `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n… (output cut at ${MAX_TOOL_RESULT_CHARS} characters; view a smaller range or narrow the search)`;
}

async function runToolCalls(run: Run, blocks: Block[]): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    checkStopped(run);
    const result = await runTool(block, run.tools);
    await run.params.onEvent({
      type: 'tool_call',
      tool: block.name,
      ...(result.command !== undefined && { command: result.command }),
      ...(result.path !== undefined && { path: result.path }),
      ok: result.ok,
      ...(!result.ok && { error: result.content }),
    });
    results.push({
      type: 'tool_result',
      tool_use_id: block.id,
      content: clipToolOutput(result.content),
      ...(!result.ok && { is_error: true }),
    });
  }
  return results;
}

/** After max_tokens the cut-off tool calls may be incomplete: refuse them and ask for smaller steps. */
function continueAfterMaxTokens(blocks: Block[], limit: number): Anthropic.ContentBlockParam[] {
  const refused: ToolResult[] = blocks
    .filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')
    .map((b) => ({
      type: 'tool_result',
      tool_use_id: b.id,
      is_error: true,
      content:
        'Not run: your response was cut off at the output limit, so this call may be incomplete. Send it again, smaller.',
    }));
  return [
    ...refused,
    {
      type: 'text',
      text: `Your last response was cut off at the ${limit}-token output limit. Continue, but keep each response short: make large changes as several smaller edits.`,
    },
  ];
}

function repairMessage(problems: string[], roundsLeft: number): string {
  return `Before this is finished, fix these problems your edits introduced (you have ${roundsLeft} repair round${roundsLeft === 1 ? '' : 's'} left):\n${problems.map((p) => `- ${p}`).join('\n')}\nThen end with the Title line and summary again.`;
}

/** Add a turn's usage to the run and tell the caller about the turn and any text the model wrote. */
async function recordTurn(run: Run, response: Anthropic.Message): Promise<string> {
  run.turns++;
  const { usage } = response;
  const turnUsage = {
    inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
    outputTokens: usage.output_tokens,
  };
  run.usage.inputTokens += turnUsage.inputTokens;
  run.usage.outputTokens += turnUsage.outputTokens;
  await run.params.onEvent({ type: 'turn', turn: run.turns, stopReason: response.stop_reason, usage: turnUsage });
  const text = response.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
  if (text) await run.params.onEvent({ type: 'text', text });
  return text;
}

/** The edit checks; a checker that crashes must not fail a run whose edits may be fine. */
async function checkRun(run: Run): Promise<{ problems: string[]; repairable: boolean }> {
  checkStopped(run);
  try {
    const problems = await checkEdits({ workspaceDir: run.params.workspaceDir, originals: run.tools.originals });
    await run.params.onEvent({ type: 'check', problems });
    return { problems, repairable: true };
  } catch (error) {
    const problems = [`The edit checks could not run: ${(error as Error).message}`];
    await run.params.onEvent({ type: 'check', problems });
    return { problems, repairable: false };
  }
}

function stopFailure(run: Run, stopReason: Anthropic.StopReason | null): AgentError | undefined {
  if (stopReason === 'refusal') {
    return new AgentError(
      'The model declined to carry out this request (stop reason: refusal); rephrase the instruction and try again.',
      'refusal',
    );
  }
  if (stopReason === 'model_context_window_exceeded') {
    return new AgentError(
      `The conversation outgrew the model's context window after ${run.turns} turns; split the request into smaller tasks.`,
      'context',
    );
  }
  return undefined;
}

/** The API rejects two user messages in a row; an empty assistant reply still needs a placeholder turn. */
function pushUser(messages: Anthropic.MessageParam[], content: Anthropic.MessageParam['content']): void {
  if (messages.at(-1)?.role === 'user') messages.push({ role: 'assistant', content: [{ type: 'text', text: '…' }] });
  messages.push({ role: 'user', content });
}

async function loop(run: Run): Promise<AgentResult> {
  const { params } = run;
  const system = buildSystemPrompt(await gatherRepositoryFacts(params.workspaceDir), params.source?.label);
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: buildTaskMessage(params) }];
  let lastText = '';
  let repairRounds = 0;
  let maxTokensInARow = 0;

  for (;;) {
    checkStopped(run);
    checkBudget(run);
    const response = await callModel(run, system, messages);
    const text = await recordTurn(run, response);
    lastText = text || lastText;
    if (response.content.length > 0) messages.push({ role: 'assistant', content: response.content });
    const stopReason = response.stop_reason;
    const failure = stopFailure(run, stopReason);
    if (failure) throw failure;
    // A paused turn resumes when the conversation is sent back as it is.
    if (stopReason === 'pause_turn') continue;
    if (stopReason === 'max_tokens') {
      if (++maxTokensInARow > MAX_CONSECUTIVE_MAX_TOKENS) {
        throw new AgentError(
          `The model's replies hit the ${params.limits.maxOutputTokensPerTurn}-token output limit ${maxTokensInARow} times in a row; ask for a smaller change or raise the per-turn output limit (SCRIBE_MAX_OUTPUT_TOKENS).`,
          'limits',
        );
      }
      pushUser(messages, continueAfterMaxTokens(response.content, params.limits.maxOutputTokensPerTurn));
      continue;
    }
    maxTokensInARow = 0;
    if (response.content.some((b) => b.type === 'tool_use')) {
      messages.push({ role: 'user', content: await runToolCalls(run, response.content) });
      continue;
    }

    // end_turn (or stop_sequence): the model thinks it is done. Check what it changed first.
    const { problems, repairable } =
      run.tools.originals.size > 0 ? await checkRun(run) : { problems: [], repairable: false };
    if (problems.length > 0 && repairable && repairRounds < params.limits.maxRepairRounds) {
      repairRounds++;
      pushUser(messages, repairMessage(problems, params.limits.maxRepairRounds - repairRounds + 1));
      continue;
    }
    const result = summarizeResult(text || lastText, params.instructions.at(-1) ?? '');
    const note =
      problems.length > 0 ? `\n\nThe automatic checks still report:\n${problems.map((p) => `- ${p}`).join('\n')}` : '';
    return { title: result.title, summary: result.summary + note, usage: { ...run.usage }, turns: run.turns };
  }
}

/**
 * Run the documentation agent on a workspace until the model finishes, a limit is hit or the signal
 * fires. Resolves with the model's summary; rejects with AgentError (after an `error` event) when the
 * run cannot finish. Edits stay in the workspace either way: committing them is the caller's call.
 */
export async function runAgent(
  params: AgentRunParams,
  sizeLimits: FileSizeLimits = DEFAULT_FILE_SIZE_LIMITS,
): Promise<AgentResult> {
  const deadline = AbortSignal.timeout(params.limits.maxWallMs);
  const run: Run = {
    params,
    deadline,
    signal: AbortSignal.any([params.signal, deadline]),
    usage: { inputTokens: 0, outputTokens: 0 },
    turns: 0,
    tools: { workspaceDir: params.workspaceDir, sourceDir: params.source?.dir, sizeLimits, originals: new Map() },
  };
  try {
    checkStopped(run);
    return await loop(run);
  } catch (error) {
    // Best effort: the step log should say where the run failed, but a failing log must not mask the cause.
    const message = error instanceof Error ? error.message : String(error);
    await Promise.resolve()
      .then(() => params.onEvent({ type: 'error', message } satisfies AgentEvent))
      .catch(() => undefined);
    throw error;
  }
}
