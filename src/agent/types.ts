import type Anthropic from '@anthropic-ai/sdk';

/** Per-job budgets. The job worker fills them from configuration (SCRIBE_MAX_TURNS and friends). */
export interface AgentLimits {
  maxTurns: number;
  maxOutputTokensPerTurn: number;
  maxTotalTokens: number;
  maxWallMs: number;
  maxRepairRounds: number;
}

export type AgentEvent =
  | { type: 'turn'; turn: number; stopReason: string | null; usage: { inputTokens: number; outputTokens: number } }
  | { type: 'tool_call'; tool: string; command?: string; path?: string; ok: boolean; error?: string }
  | { type: 'text'; text: string }
  | { type: 'check'; problems: string[] }
  | { type: 'error'; message: string };

export interface AgentRunParams {
  /** The cloned repository; the agent may only touch files inside it (never .git). */
  workspaceDir: string;
  /** The original prompt first, then follow-up messages in order; the last one is the current task. */
  instructions: string[];
  /**
   * A second, read-only tree the agent may list, search and view through paths prefixed `source:` (an automation's
   * source repository at the pushed commit); every write there is refused.
   */
  source?: { dir: string; label: string };
  /** Optional extra context (e.g. a review comment's file and line). */
  context?: string;
  model: string;
  /** @anthropic-ai/sdk instance, baseURL already set by the caller. */
  client: Anthropic;
  limits: AgentLimits;
  /** Aborted when the job is archived or the process shuts down: the agent stops within seconds. */
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void | Promise<void>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface AgentResult {
  summary: string;
  title: string;
  usage: TokenUsage;
  turns: number;
}

export type AgentErrorReason = 'overloaded' | 'limits' | 'refusal' | 'context' | 'aborted' | 'model_error';
