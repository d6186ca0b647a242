import Anthropic from '@anthropic-ai/sdk';
import { AgentError } from './agent-error.js';
import type { AgentLimits } from './types.js';

export interface FailureContext {
  /** The caller's signal fired (job archived, process shutting down). */
  aborted: boolean;
  /** The wall-time limit fired. */
  timedOut: boolean;
  /** How many times the SDK tried the request (its retries plus one). */
  attempts: number;
  limits: AgentLimits;
}

function apiMessage(error: InstanceType<typeof Anthropic.APIError>): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const message = typeof body?.error?.message === 'string' ? body.error.message : error.message;
  return message.replace(/\s+/g, ' ').trim().slice(0, 300);
}

function apiErrorType(error: InstanceType<typeof Anthropic.APIError>): string | undefined {
  const body = error.error as { error?: { type?: unknown } } | undefined;
  return typeof body?.error?.type === 'string' ? body.error.type : undefined;
}

export function wallTimeExceeded(limits: AgentLimits): AgentError {
  const minutes = Math.max(1, Math.round(limits.maxWallMs / 60_000));
  return new AgentError(
    `The agent ran past its time limit (${minutes} min) before finishing; split the request into smaller tasks or raise the time limit (SCRIBE_JOB_TIMEOUT).`,
    'limits',
  );
}

export function stoppedByCaller(): AgentError {
  return new AgentError(
    'The agent was stopped because the job was archived or the server is shutting down.',
    'aborted',
  );
}

/** Map whatever the SDK threw to an AgentError whose message tells the user what to do next. */
export function mapApiError(error: unknown, context: FailureContext): AgentError {
  if (error instanceof AgentError) return error;
  if (context.aborted) return stoppedByCaller();
  if (context.timedOut) return wallTimeExceeded(context.limits);
  const attempts = `after ${context.attempts} attempt${context.attempts === 1 ? '' : 's'}`;
  if (error instanceof Anthropic.APIUserAbortError) {
    return new AgentError('The model call was cancelled before it finished; try again.', 'model_error');
  }
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return new AgentError(`The model API did not answer in time ${attempts}; try again later.`, 'model_error');
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return new AgentError(
      `Could not reach the model API ${attempts}; check ANTHROPIC_BASE_URL and the network, then try again.`,
      'model_error',
    );
  }
  if (error instanceof Anthropic.APIError) {
    const status = error.status;
    const type = apiErrorType(error);
    const detail = apiMessage(error);
    if (status === 529 || type === 'overloaded_error') {
      return new AgentError(
        `The model was overloaded (HTTP ${status ?? 529}) ${attempts}; try again later.`,
        'overloaded',
      );
    }
    if (status === 429)
      return new AgentError(
        `The model API rate-limited Scribe (HTTP 429) ${attempts}; wait a few minutes and try again.`,
        'model_error',
      );
    if (status === 401)
      return new AgentError('The model API rejected the API key (HTTP 401); check ANTHROPIC_API_KEY.', 'model_error');
    if (status === 403)
      return new AgentError(
        `The model API refused access (HTTP 403: ${detail}); check the API key's permissions.`,
        'model_error',
      );
    if (status === 404)
      return new AgentError(
        `The model API answered 404 (${detail}); check the configured model name and ANTHROPIC_BASE_URL.`,
        'model_error',
      );
    if (status === 413 || /prompt is too long|context window|too many tokens/i.test(detail)) {
      return new AgentError(
        `The conversation no longer fits the model's context window (HTTP ${status}); split the request into smaller tasks.`,
        'context',
      );
    }
    if (status !== undefined && status >= 500)
      return new AgentError(`The model API failed (HTTP ${status}) ${attempts}; try again later.`, 'model_error');
    return new AgentError(`The model API refused the request (HTTP ${status}: ${detail}).`, 'model_error');
  }
  return new AgentError(`The model call failed: ${(error as Error)?.message ?? String(error)}.`, 'model_error');
}
