import { PAYLOAD_VERSION } from './event-types.js';

/** The largest body sent; a bigger object is replaced by a pointer to it in the API. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The object an event carries, as the API shows it, and where the API serves it (for a truncated body). The HTTP
 * layer passes it in (it owns the API's shapes); it may read the database, as the API's own routes do.
 */
export type RenderEvent = (event: { type: string; projectId: string; data: Record<string, unknown> }) => Promise<{
  data: unknown;
  link: string | null;
}>;

const envelope = (type: string, eventAt: Date) => ({
  type,
  timestamp: eventAt.toISOString(),
  version: PAYLOAD_VERSION,
});

/**
 * An event's payload `data`, rendered once when the event is fanned out (so every subscription and every retry gets
 * the same object, as the API showed it just after the change), as the JSON a message stores. An object whose body
 * would pass 256 KB is replaced by a pointer to it in the API.
 */
export async function renderData(params: {
  type: string;
  eventAt: Date;
  projectId: string;
  data: Record<string, unknown>;
  render: RenderEvent;
}): Promise<string> {
  const { data, link } = await params.render({ type: params.type, projectId: params.projectId, data: params.data });
  const json = JSON.stringify(data);
  if (Buffer.byteLength(buildBody({ type: params.type, eventAt: params.eventAt, data: json })) <= MAX_BODY_BYTES)
    return json;
  const id = (data as { id?: unknown } | null)?.id;
  return JSON.stringify({ truncated: true, ...(typeof id === 'string' ? { id } : {}), link });
}

/**
 * A delivery's body: `{type, timestamp, version, data}` (the Standard Webhooks shape), `timestamp` being when the
 * change happened and `data` the message's stored JSON. Pure: the same message gives the same bytes on every retry.
 */
export function buildBody(params: { type: string; eventAt: Date; data: string }): string {
  return JSON.stringify({ ...envelope(params.type, params.eventAt), data: JSON.parse(params.data) as unknown });
}
