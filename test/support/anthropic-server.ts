import { TEST_KEEP_ALIVE_SECONDS } from './keep-alive.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`) that plays scripted
 * conversations. Use it through the real SDK: `new Anthropic({ apiKey: 'test', baseURL: standIn.url })`.
 *
 *   const standIn = await startAnthropicStandIn();
 *   standIn.script([
 *     reply([toolUse('str_replace_based_edit_tool', { command: 'view', path: 'README.md' })]),
 *     reply([text('Done.')]),
 *   ]);
 *   ... run the agent ...
 *   expect(standIn.requests[1].body.messages.at(-1).content[0].type).toBe('tool_result');
 *   await standIn.close();
 *
 * Each request takes the next turn of the first script whose `match` accepts it (scripts without a
 * match accept anything). When nothing is scripted the `fallback` responder answers, if set; otherwise
 * the request fails with a non-retryable 500 saying the script ran out, so a test sees it at once.
 * Requests with `stream: true` get the same turn as server-sent events.
 * Requests are checked the way the real API checks them (roles alternate, every tool_use answered by a
 * tool_result in the next user message) and refused with 400 `invalid_request_error` otherwise.
 */

export interface ContentBlock {
  type: 'text' | 'tool_use';
  [key: string]: unknown;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** One scripted answer: a message, or an HTTP error. */
export type Turn =
  | {
      content: ContentBlock[];
      /** Default: `tool_use` when the content has a tool_use block, else `end_turn`. */
      stopReason?: StopReason;
      /** Default: `{ input_tokens: 100, output_tokens: 50 }`. */
      usage?: Partial<Usage>;
      /** Wait this long before answering (stops waiting if the client goes away). */
      delayMs?: number;
    }
  | {
      error: {
        status: number;
        /** Default from the status: 529 → overloaded_error, 429 → rate_limit_error, 400 → invalid_request_error, … */
        type?: string;
        message?: string;
      };
      /** Sent as `retry-after` (seconds) / `retry-after-ms`; the SDK waits that long before retrying. */
      retryAfter?: number;
      retryAfterMs?: number;
      /** Sent as `x-should-retry`: the SDK obeys it over its own status rules. */
      shouldRetry?: boolean;
      /** Answer this many consecutive requests with the same error (e.g. 3 to outlast the SDK's 2 retries). */
      times?: number;
      delayMs?: number;
    };

export interface RecordedRequest {
  /** The parsed JSON body: model, max_tokens, system, tools, messages… */
  body: any;
  headers: http.IncomingHttpHeaders;
  /** What the stand-in answered: the status code. */
  status?: number;
}

export interface ScriptOptions {
  /** Only requests this returns true for take turns from this script (e.g. by the prompt in messages[0]). */
  match?: (request: RecordedRequest) => boolean;
}

export type Responder = (request: RecordedRequest) => Turn;

export interface AnthropicStandIn {
  /** Base URL for the SDK (`baseURL`), e.g. http://127.0.0.1:41234 */
  url: string;
  /** Queue turns; can be called several times (each call adds a script, or extends the unmatched one). */
  script(turns: Turn[], options?: ScriptOptions): void;
  /** Answers requests no script takes (e.g. a benchmark's instantly answering model). */
  fallback(responder: Responder | undefined): void;
  /** Every request received, in order (including ones answered with errors). */
  requests: RecordedRequest[];
  /** Turns still queued across all scripts. */
  pending(): number;
  /** Forget scripts, fallback and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

// ---------- builders for scripted content ----------

let nextId = 1;
const newId = (prefix: string) => `${prefix}_standin${String(nextId++).padStart(6, '0')}`;

export function text(value: string): ContentBlock {
  return { type: 'text', text: value };
}

export function toolUse(name: string, input: Record<string, unknown>, id = newId('toolu')): ContentBlock {
  return { type: 'tool_use', id, name, input };
}

/** Shorthand for a text editor call. */
export function edit(input: {
  command: 'view' | 'create' | 'str_replace' | 'insert';
  path: string;
  [key: string]: unknown;
}): ContentBlock {
  return toolUse('str_replace_based_edit_tool', input);
}

export function reply(
  content: ContentBlock[],
  extra: { stopReason?: StopReason; usage?: Partial<Usage>; delayMs?: number } = {},
): Turn {
  return { content, ...extra };
}

export function overloaded(times = 1, extra: { retryAfterMs?: number } = {}): Turn {
  return { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' }, times, ...extra };
}

// ---------- the server ----------

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

interface Script {
  turns: Turn[];
  match?: ScriptOptions['match'];
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
  res.end(data);
}

/** The same message as server-sent events, the way the API streams it (`stream: true`). */
function sendEventStream(
  res: http.ServerResponse,
  message: { content: ContentBlock[]; stop_reason: string; usage: Usage } & Record<string, unknown>,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': newId('req') });
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  message.content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    } else {
      send('content_block_start', { index, content_block: { ...block, text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send('message_stop', {});
  res.end();
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

/** The checks the real API makes that a broken agent loop would trip over. */
export function validateMessagesRequest(body: any): string | undefined {
  if (!body || typeof body !== 'object') return 'body: expected a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return 'max_tokens: Field required (a positive integer)';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  if (body.messages[0].role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 0; i < body.messages.length; i++) {
    const message = body.messages[i];
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${i}.role: must be "user" or "assistant"`;
    if (i > 0 && body.messages[i - 1].role === message.role)
      return `messages: roles must alternate between "user" and "assistant" (messages.${i})`;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(blocks) || (blocks.length === 0 && i < body.messages.length - 1))
      return `messages.${i}.content: must not be empty`;
    if (message.role !== 'assistant') continue;
    const toolUseIds = blocks.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id);
    if (toolUseIds.length === 0) continue;
    const next = body.messages[i + 1];
    if (!next) return `messages.${i}: tool_use blocks must be followed by a user message with tool_result blocks`;
    const nextBlocks = typeof next.content === 'string' ? [] : next.content;
    const answered = new Set(nextBlocks.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id));
    const missing = toolUseIds.filter((id: string) => !answered.has(id));
    if (missing.length > 0)
      return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`;
  }
  return undefined;
}

export async function startAnthropicStandIn(): Promise<AnthropicStandIn> {
  let scripts: Script[] = [];
  let fallbackResponder: Responder | undefined;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();

  function nextTurn(request: RecordedRequest): Turn | undefined {
    const script = scripts.find((s) => s.turns.length > 0 && (!s.match || s.match(request)));
    if (!script) return fallbackResponder?.(request);
    const turn = script.turns[0];
    if ('error' in turn && (turn.times ?? 1) > 1) {
      script.turns[0] = { ...turn, times: (turn.times ?? 1) - 1 };
      return turn;
    }
    script.turns.shift();
    return turn;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      return sendJson(res, 404, errorBody('not_found_error', `${req.method} ${req.url} is not served by the stand-in`));
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, errorBody('invalid_request_error', 'The request body is not valid JSON'));
    }
    const recorded: RecordedRequest = { body, headers: req.headers };
    requests.push(recorded);
    const respond = (status: number, payload: unknown, headers?: Record<string, string>) => {
      recorded.status = status;
      sendJson(res, status, payload, headers);
    };
    if (!req.headers['x-api-key'] && !req.headers.authorization)
      return respond(401, errorBody('authentication_error', 'x-api-key header is required'));
    const invalid = validateMessagesRequest(body);
    if (invalid) return respond(400, errorBody('invalid_request_error', invalid));

    const turn = nextTurn(recorded);
    if (!turn)
      return respond(
        500,
        errorBody('api_error', `Anthropic stand-in: the script has no turn left for request #${requests.length}`),
        { 'x-should-retry': 'false' },
      );
    if (turn.delayMs) {
      const gone = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), turn.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (gone) {
        recorded.status = 499;
        return;
      }
    }
    if ('error' in turn) {
      const headers: Record<string, string> = {};
      if (turn.retryAfter !== undefined) headers['retry-after'] = String(turn.retryAfter);
      if (turn.retryAfterMs !== undefined) headers['retry-after-ms'] = String(turn.retryAfterMs);
      if (turn.shouldRetry !== undefined) headers['x-should-retry'] = String(turn.shouldRetry);
      const type = turn.error.type ?? ERROR_TYPES[turn.error.status] ?? 'api_error';
      return respond(turn.error.status, errorBody(type, turn.error.message ?? type), headers);
    }
    const hasToolUse = turn.content.some((b) => b.type === 'tool_use');
    const message = {
      id: newId('msg'),
      type: 'message',
      role: 'assistant',
      model: (body as { model: string }).model,
      content: turn.content,
      stop_reason: turn.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: {
        input_tokens: turn.usage?.input_tokens ?? 100,
        output_tokens: turn.usage?.output_tokens ?? 50,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
    if ((body as { stream?: boolean }).stream) {
      recorded.status = 200;
      return sendEventStream(res, message);
    }
    respond(200, message);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        sendJson(res, 500, errorBody('api_error', `stand-in failure: ${(error as Error).message}`), {
          'x-should-retry': 'false',
        });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = TEST_KEEP_ALIVE_SECONDS * 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(turns, options = {}) {
      const open = !options.match && scripts.find((s) => !s.match);
      if (open) open.turns.push(...turns);
      else scripts.push({ turns: [...turns], match: options.match });
    },
    fallback(responder) {
      fallbackResponder = responder;
    },
    pending: () =>
      scripts.reduce((n, s) => n + s.turns.reduce((m, t) => m + ('error' in t ? (t.times ?? 1) : 1), 0), 0),
    reset() {
      scripts = [];
      fallbackResponder = undefined;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
