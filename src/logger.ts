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
      redact: {
        paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token', 'key', 'apiKey', 'privateKey', 'secret', 'ip', 'req.ip'],
        censor: '[redacted]',
      },
    },
    destination ?? process.stdout,
  );
}
