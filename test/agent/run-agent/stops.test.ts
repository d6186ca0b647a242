import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../../src/agent/run-agent.js';
import {
  edit,
  overloaded,
  reply,
  startAnthropicStandIn,
  text,
  toolUse,
  type AnthropicStandIn,
} from '../../support/anthropic-server.js';
import { waitFor } from '../../support/wait-for.js';
import { makeWorkspace, runAgainst } from '../../support/agent-harness.js';

let standIn: AnthropicStandIn;
let ws: Awaited<ReturnType<typeof makeWorkspace>>;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
});
afterAll(() => standIn.close());
beforeEach(async () => {
  standIn.reset();
  ws = await makeWorkspace({ 'README.md': '# Project\n\nHello.\n' });
});
afterEach(() => ws.cleanup());

function expectAgentError(error: unknown, reason: AgentError['reason'], message: RegExp | string): void {
  expect(error).toBeInstanceOf(AgentError);
  expect((error as AgentError).reason).toBe(reason);
  if (typeof message === 'string') expect((error as AgentError).message).toBe(message);
  else expect((error as AgentError).message).toMatch(message);
}

describe('stop reasons', () => {
  it('continues after max_tokens: cut-off tool calls are refused, not run, and the model is asked to be brief', async () => {
    standIn.script([
      reply([text('Writing the whole file'), edit({ command: 'create', path: 'half.md', file_text: '# Half' })], {
        stopReason: 'max_tokens',
      }),
      reply([text('Title: Nothing\n\nStopped.')]),
    ]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxOutputTokensPerTurn: 1000 } });
    expect(run.error).toBeUndefined();
    await expect(fs.access(path.join(ws.dir, 'half.md'))).rejects.toThrow();
    const followUp = standIn.requests[1].body.messages.at(-1);
    expect(followUp.content[0]).toMatchObject({
      type: 'tool_result',
      is_error: true,
      content: expect.stringContaining('cut off'),
    });
    expect(followUp.content[1]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('cut off at the 1000-token output limit'),
    });
    expect(run.events[0]).toEqual({
      type: 'turn',
      turn: 1,
      stopReason: 'max_tokens',
      usage: { inputTokens: 100, outputTokens: 50 },
    });
  });

  it('keeps the conversation valid when a cut-off reply has no content at all', async () => {
    standIn.script([reply([], { stopReason: 'max_tokens' }), reply([text('Title: Done\n\nOK.')])]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir });
    expect(run.error).toBeUndefined();
    expect(standIn.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(standIn.requests[1].body.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
  });

  it('gives up with a limits error when max_tokens keeps happening', async () => {
    standIn.script(Array.from({ length: 4 }, () => reply([text('very long…')], { stopReason: 'max_tokens' })));
    const run = await runAgainst({ standIn, workspaceDir: ws.dir });
    expectAgentError(run.error, 'limits', /hit the 8192-token output limit 4 times in a row/);
  });

  it('resends the conversation unchanged after pause_turn so the model resumes', async () => {
    standIn.script([
      reply([text('Working on it')], { stopReason: 'pause_turn' }),
      reply([text('Title: Done\n\nAll good.')]),
    ]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir });
    expect(run.error).toBeUndefined();
    const resumed = standIn.requests[1].body.messages;
    expect(resumed).toHaveLength(2);
    expect(resumed[1]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Working on it' }] });
    expect(run.result).toMatchObject({ title: 'Done', turns: 2 });
  });

  it('fails with refusal when the model refuses', async () => {
    standIn.script([reply([], { stopReason: 'refusal' })]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir });
    expectAgentError(
      run.error,
      'refusal',
      'The model declined to carry out this request (stop reason: refusal); rephrase the instruction and try again.',
    );
    expect(run.events.at(-1)).toEqual({ type: 'error', message: (run.error as Error).message });
  });

  it('fails with context when the context window is exhausted (stop reason or HTTP 400)', async () => {
    standIn.script([reply([text('…')], { stopReason: 'model_context_window_exceeded' })]);
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir })).error,
      'context',
      /outgrew the model's context window after 1 turns/,
    );
    standIn.script([{ error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } }]);
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir })).error,
      'context',
      /no longer fits the model's context window/,
    );
  });
});

describe('API errors', () => {
  it('lets the SDK retry a transient 529 and carries on', async () => {
    standIn.script([overloaded(2, { retryAfterMs: 5 }), reply([text('Title: Fine\n\nOK.')])]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir });
    expect(run.error).toBeUndefined();
    expect(standIn.requests.map((r) => r.status)).toEqual([529, 529, 200]);
  });

  it('reports the attempt count from the client configuration', async () => {
    standIn.script([overloaded(1)]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir, maxRetries: 0 });
    expectAgentError(run.error, 'overloaded', 'The model was overloaded (HTTP 529) after 1 attempt; try again later.');
  });

  it('says so when the model API cannot be reached at all', async () => {
    const nowhere = { url: 'http://127.0.0.1:1' } as AnthropicStandIn;
    const run = await runAgainst({ standIn: nowhere, workspaceDir: ws.dir, maxRetries: 0 });
    expectAgentError(
      run.error,
      'model_error',
      'Could not reach the model API after 1 attempt; check ANTHROPIC_BASE_URL and the network, then try again.',
    );
  });

  it('maps auth, rate-limit and server errors to model_error sentences', async () => {
    standIn.script([{ error: { status: 401, message: 'invalid x-api-key' } }]);
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir })).error,
      'model_error',
      'The model API rejected the API key (HTTP 401); check ANTHROPIC_API_KEY.',
    );
    standIn.script([{ error: { status: 429 }, times: 3, retryAfterMs: 5 }]);
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir })).error,
      'model_error',
      'The model API rate-limited Scribe (HTTP 429) after 3 attempts; wait a few minutes and try again.',
    );
    standIn.script([{ error: { status: 500 }, shouldRetry: false }]);
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir })).error,
      'model_error',
      'The model API failed (HTTP 500) after 3 attempts; try again later.',
    );
  });
});

const busyModel = () => reply([toolUse('list_files', { pattern: '**/*' })]);

describe('limits', () => {
  it('stops at maxTurns', async () => {
    standIn.script(Array.from({ length: 5 }, busyModel));
    const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxTurns: 3 } });
    expectAgentError(run.error, 'limits', /limit of 3 model turns/);
    expect(standIn.requests).toHaveLength(3);
  });

  it('stops when the token budget is spent, summing usage over turns', async () => {
    standIn.script(
      Array.from({ length: 5 }, () =>
        reply([toolUse('list_files', { pattern: '*' })], { usage: { input_tokens: 400, output_tokens: 100 } }),
      ),
    );
    const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxTotalTokens: 1200 } });
    expectAgentError(run.error, 'limits', /used 1500 tokens, over its limit of 1200/);
    expect(standIn.requests).toHaveLength(3);
    expect(run.events.filter((e) => e.type === 'turn').map((e) => (e as { usage: unknown }).usage)).toEqual(
      Array(3).fill({ inputTokens: 400, outputTokens: 100 }),
    );
  });

  it('stops at the wall-time limit, even in the middle of a model call', async () => {
    standIn.script([busyModel(), { ...busyModel(), delayMs: 30_000 }]);
    const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxWallMs: 500 } });
    expectAgentError(run.error, 'limits', /ran past its time limit/);
    expect(standIn.requests).toHaveLength(2);
  });
});

describe('abort', () => {
  it('stops within seconds when the signal fires during a slow model call', async () => {
    standIn.script([busyModel(), { ...busyModel(), delayMs: 600_000 }]);
    const controller = new AbortController();
    const running = runAgainst({ standIn, workspaceDir: ws.dir, signal: controller.signal });
    await waitFor(() => standIn.requests.length === 2, 'the slow model call');
    controller.abort();
    const run = await running;
    expectAgentError(
      run.error,
      'aborted',
      'The agent was stopped because the job was archived or the server is shutting down.',
    );
    // the agent hung up on the call rather than waiting for its answer
    await waitFor(() => standIn.requests[1].status === 499, 'the model call to be dropped');
    expect(run.events.at(-1)).toEqual({ type: 'error', message: (run.error as Error).message });
  });

  it('stops within seconds when the signal fires while the SDK waits to retry an overloaded model', async () => {
    // the SDK honours a retry-after under a minute: it would wait 59 s, past what this test waits for anything
    standIn.script([overloaded(3, { retryAfterMs: 59_000 })]);
    const controller = new AbortController();
    const running = runAgainst({ standIn, workspaceDir: ws.dir, signal: controller.signal });
    await waitFor(() => standIn.requests[0]?.status === 529, 'the overloaded answer');
    controller.abort();
    const run = await running;
    expectAgentError(run.error, 'aborted', /stopped/);
    // stopped during the wait: no retry was sent
    expect(standIn.requests).toHaveLength(1);
  });

  it('does not call the model at all when already aborted, and stops between tool calls', async () => {
    const controller = new AbortController();
    controller.abort();
    expectAgentError(
      (await runAgainst({ standIn, workspaceDir: ws.dir, signal: controller.signal })).error,
      'aborted',
      /stopped/,
    );
    expect(standIn.requests).toHaveLength(0);

    // Aborting while the first of two tool calls runs: the second never runs.
    const later = new AbortController();
    standIn.script([
      reply([
        edit({ command: 'view', path: 'README.md' }),
        edit({ command: 'create', path: 'new.md', file_text: 'x' }),
      ]),
    ]);
    const run = await runAgainst({
      standIn,
      workspaceDir: ws.dir,
      signal: later.signal,
      onEvent: (event) => {
        if (event.type === 'tool_call') later.abort();
      },
    });
    expectAgentError(run.error, 'aborted', /stopped/);
    expect(run.events.filter((e) => e.type === 'tool_call')).toHaveLength(1);
    await expect(fs.access(path.join(ws.dir, 'new.md'))).rejects.toThrow();
    expect(standIn.requests).toHaveLength(1);
  });
});
