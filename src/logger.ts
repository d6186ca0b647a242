import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs (pino, as Probot uses). Anything that looks like a secret is redacted by path, and
 * raw client IPs never reach a log line because request logging records no addresses at all.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'scribe' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: (err: Error) => withoutWebhookBodies(pino.stdSerializers.err(err)) },
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          'req.headers.authorization',
          'token',
          'key',
          'apiKey',
          'privateKey',
          'secret',
          'ip',
          'req.ip',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? process.stdout,
  );
}

const WEBHOOK_BODY_KEYS = new Set(['payload', 'signature']);

/**
 * @octokit/webhooks attaches the whole delivery (body and signature) to verification errors, and Probot logs
 * them: a delivery can carry private repository content, so those fields are dropped wherever they nest.
 */
function withoutWebhookBodies<T>(value: T, depth = 0): T {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutWebhookBodies(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = WEBHOOK_BODY_KEYS.has(key) ? '[omitted]' : withoutWebhookBodies(v, depth + 1);
  }
  return out as T;
}
