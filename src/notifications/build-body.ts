import { PAYLOAD_VERSION } from './event-types.js';

/** The largest body sent; a bigger object is replaced by a pointer to it in the API. */
export const MAX_BODY_BYTES = 256 * 1024;

/** The object an event carries, as the API shows it, and where the API serves it (for a truncated body). */
export type RenderEvent = (event: { type: string; projectId: string; data: Record<string, unknown> }) => {
  data: unknown;
  link: string | null;
};

/**
 * A delivery's body: `{type, timestamp, version, data}` (the Standard Webhooks shape), `timestamp` being when the
 * change happened. Pure: the same message renders the same bytes on every retry.
 */
export function buildBody(params: {
  type: string;
  eventAt: Date;
  projectId: string;
  data: Record<string, unknown>;
  render: RenderEvent;
}): string {
  const { data, link } = params.render({ type: params.type, projectId: params.projectId, data: params.data });
  const envelope = { type: params.type, timestamp: params.eventAt.toISOString(), version: PAYLOAD_VERSION };
  const body = JSON.stringify({ ...envelope, data });
  if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body;
  const id = (data as { id?: unknown } | null)?.id;
  return JSON.stringify({
    ...envelope,
    data: { truncated: true, ...(typeof id === 'string' ? { id } : {}), link },
  });
}
