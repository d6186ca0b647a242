import Anthropic from '@anthropic-ai/sdk';
import {
  overloaded,
  reply,
  startAnthropicStandIn,
  text,
  toolUse,
  validateMessagesRequest,
  type AnthropicStandIn,
} from './anthropic-server.js';

let standIn: AnthropicStandIn;
let client: Anthropic;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
  client = new Anthropic({ apiKey: 'k', baseURL: standIn.url, maxRetries: 0 });
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const ask = (content: string) =>
  client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content }] });

describe('Anthropic stand-in', () => {
  it('answers with real Messages API shapes and records requests', async () => {
    standIn.script([
      reply([text('hi'), toolUse('list_files', { pattern: '*' }, 'toolu_1')], { usage: { input_tokens: 7 } }),
    ]);
    const message = await ask('hello');
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'toolu_1', name: 'list_files', input: { pattern: '*' } },
      ],
      usage: { input_tokens: 7, output_tokens: 50 },
    });
    expect(standIn.requests[0].body.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(standIn.pending()).toBe(0);
  });

  it('streams the same message as server-sent events when asked', async () => {
    standIn.script([
      reply([text('hi'), toolUse('list_files', { pattern: '*' }, 'toolu_2')], {
        stopReason: 'tool_use',
        usage: { input_tokens: 3, output_tokens: 4 },
      }),
    ]);
    const message = await client.messages
      .stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(message).toMatchObject({
      type: 'message',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'toolu_2', name: 'list_files', input: { pattern: '*' } },
      ],
      usage: { input_tokens: 3, output_tokens: 4 },
    });
    expect(standIn.requests[0].body.stream).toBe(true);
  });

  it('routes concurrent conversations by match, then falls back, then fails clearly', async () => {
    standIn.script([reply([text('for A')])], { match: (r) => r.body.messages[0].content === 'A' });
    standIn.script([reply([text('for anyone')])]);
    standIn.fallback(() => reply([text('fallback')]));
    expect((await ask('B')).content).toEqual([{ type: 'text', text: 'for anyone' }]);
    expect((await ask('A')).content).toEqual([{ type: 'text', text: 'for A' }]);
    expect((await ask('A')).content).toEqual([{ type: 'text', text: 'fallback' }]);
    standIn.fallback(undefined);
    await expect(ask('A')).rejects.toMatchObject({
      status: 500,
      error: { type: 'error', error: { type: 'api_error' } },
    });
  });

  it('sends the overloaded error shape with status 529 the requested number of times', async () => {
    standIn.script([overloaded(2), reply([text('ok')])]);
    await expect(ask('x')).rejects.toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    await expect(ask('x')).rejects.toBeInstanceOf(Anthropic.OverloadedError);
    expect((await ask('x')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('sends retry-after, retry-after-ms and x-should-retry when scripted', async () => {
    standIn.script([
      { error: { status: 429, message: 'slow down' }, retryAfter: 2, retryAfterMs: 5, shouldRetry: true },
    ]);
    const response = await fetch(`${standIn.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(429);
    expect([
      response.headers.get('retry-after'),
      response.headers.get('retry-after-ms'),
      response.headers.get('x-should-retry'),
    ]).toEqual(['2', '5', 'true']);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });

  it('refuses requests the real API would refuse', () => {
    expect(
      validateMessagesRequest({ model: 'm', max_tokens: 5, messages: [{ role: 'assistant', content: 'x' }] }),
    ).toMatch(/first message/);
    const unanswered = {
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'n', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'no result' }] },
      ],
    };
    expect(validateMessagesRequest(unanswered)).toMatch(/without tool_result blocks.*t1/);
    expect(
      validateMessagesRequest({
        model: 'm',
        max_tokens: 5,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      }),
    ).toMatch(/alternate/);
  });
});
