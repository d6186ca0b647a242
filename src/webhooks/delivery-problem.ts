/** GitHub caps webhook payloads at 25 MB; anything larger is not a delivery. */
export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

const EVENT_NAME = /^[a-z][a-z_]{0,63}$/;
const DELIVERY_ID = /^[\w.:-]{1,128}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What makes a correctly signed request unusable as a GitHub event, or undefined when it is one. Only what every
 * delivery must have, and what Probot reads before any handler runs (the installation id it mints a token for),
 * is checked here; a handler that meets a field of the wrong shape fails that delivery on its own record.
 */
export function deliveryProblem(params: {
  event: string | undefined;
  id: string | undefined;
  body: string;
}): string | undefined {
  if (!params.event || !EVENT_NAME.test(params.event))
    return 'X-GitHub-Event must be an event name such as "issue_comment"';
  if (!params.id || !DELIVERY_ID.test(params.id)) return 'X-GitHub-Delivery must be a delivery id (a GUID)';
  let payload: unknown;
  try {
    payload = JSON.parse(params.body);
  } catch {
    return 'the body is not JSON';
  }
  if (!isObject(payload)) return 'the payload must be a JSON object';
  if ('action' in payload && typeof payload.action !== 'string') return 'action must be a string';
  if ('installation' in payload && payload.installation !== null) {
    const installation = payload.installation;
    if (!isObject(installation) || !Number.isSafeInteger(installation.id) || (installation.id as number) <= 0)
      return 'installation.id must be a positive integer';
  }
  for (const field of ['repository', 'sender', 'organization'] as const) {
    if (field in payload && payload[field] !== null && !isObject(payload[field])) return `${field} must be an object`;
  }
  return undefined;
}
