import Anthropic from '@anthropic-ai/sdk';
import { AgentError } from '../../src/agent/agent-error.js';
import { mapApiError } from '../../src/agent/map-api-error.js';
import { DEFAULT_AGENT_LIMITS } from '../../src/agent/run-agent.js';

const context = { aborted: false, timedOut: false, attempts: 3, limits: DEFAULT_AGENT_LIMITS };
const apiError = (status: number, type: string, message: string) =>
  Anthropic.APIError.generate(status, { type: 'error', error: { type, message } }, undefined, new Headers());

describe('mapApiError', () => {
  it('prefers the caller abort and the wall-time limit over whatever the SDK threw', () => {
    const thrown = new Anthropic.APIUserAbortError();
    expect(mapApiError(thrown, { ...context, aborted: true })).toMatchObject({ reason: 'aborted' });
    expect(mapApiError(thrown, { ...context, timedOut: true })).toMatchObject({
      reason: 'limits',
      message: expect.stringContaining('time limit (15 min)'),
    });
    expect(mapApiError(thrown, context)).toMatchObject({
      reason: 'model_error',
      message: 'The model call was cancelled before it finished; try again.',
    });
  });

  it('recognises overload by status or by error type', () => {
    expect(mapApiError(apiError(529, 'overloaded_error', 'Overloaded'), context)).toMatchObject({
      reason: 'overloaded',
      message: 'The model was overloaded (HTTP 529) after 3 attempts; try again later.',
    });
    expect(mapApiError(apiError(500, 'overloaded_error', 'Overloaded'), context)).toMatchObject({
      reason: 'overloaded',
      message: 'The model was overloaded (HTTP 500) after 3 attempts; try again later.',
    });
  });

  it('gives each other failure a sentence with the next step', () => {
    expect(mapApiError(apiError(404, 'not_found_error', 'model: claude-nope'), context).message).toBe(
      'The model API answered 404 (model: claude-nope); check the configured model name and ANTHROPIC_BASE_URL.',
    );
    expect(mapApiError(apiError(400, 'invalid_request_error', 'prompt is too long'), context)).toMatchObject({
      reason: 'context',
    });
    expect(mapApiError(apiError(400, 'invalid_request_error', 'tools.0: bad'), context).message).toBe(
      'The model API refused the request (HTTP 400: tools.0: bad).',
    );
    expect(mapApiError(new Anthropic.APIConnectionError({ message: 'down' }), context).message).toBe(
      'Could not reach the model API after 3 attempts; check ANTHROPIC_BASE_URL and the network, then try again.',
    );
    const already = new AgentError('kept', 'refusal');
    expect(mapApiError(already, context)).toBe(already);
  });
});
