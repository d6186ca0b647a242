import type { Config } from '../config.js';
import { UsageError } from './command.js';

/** A failed API call, carrying the server's own error sentence. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ScribeApiClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  delete(path: string): Promise<void>;
}

/**
 * A minimal client of Scribe's public API (the CLI's job commands use it, so they double as a reference
 * client): bearer key from SCRIBE_API_KEY, base URL from SCRIBE_URL.
 */
export function createApiClient(client: Config['client'], fetchImpl: typeof fetch = fetch): ScribeApiClient {
  if (!client.apiKey)
    throw new UsageError('set SCRIBE_API_KEY to an API key (scribe key create …) for the job commands');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetchImpl(`${client.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${client.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiCallError(0, `cannot reach Scribe at ${client.url} (${(err as Error).message}); set SCRIBE_URL`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiCallError(res.status, `unexpected non-JSON answer (HTTP ${res.status}) from ${client.url}`);
    }
    if (!res.ok) {
      const error = parsed as { error?: string; details?: { message: string }[] } | undefined;
      const details = error?.details?.map((d) => d.message).join('; ');
      throw new ApiCallError(
        res.status,
        `HTTP ${res.status}: ${error?.error ?? 'request failed'}${details ? ` (${details})` : ''}`,
      );
    }
    return parsed as T;
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    delete: (path) => call('DELETE', path),
  };
}
