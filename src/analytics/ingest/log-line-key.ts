import { createHmac } from 'node:crypto';

/**
 * Idempotency key of a log line — or of the Nth copy of a line in one log, as importLogs numbers them: importing
 * the same log twice stores each copy once. Keyed, since lines hold IPs.
 */
export function logLineKey(params: { secret: string; projectId: string; line: string }): string {
  const { secret, projectId, line } = params;
  return `log:${createHmac('sha256', secret).update(`${projectId}\0${line}`).digest('base64url').slice(0, 22)}`;
}
