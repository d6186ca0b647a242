import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Invalid } from '../../errors.js';

/**
 * Where a paged listing stands, frozen at its first page: the range and filters it was made for, the highest row id
 * that existed then (later rows are left out, so totals and order cannot shift between pages), and the sort key of
 * the last row returned (keyset paging: no duplicates or gaps, however deep).
 */
export const CursorState = z.object({
  from: z.number().int(),
  to: z.number().int(),
  /** the filters, as one canonical string */
  filters: z.string().max(200),
  snapshot: z.number().int().min(0),
  /** sort key of the last row returned: [number, string] or [number, number] */
  after: z.tuple([z.number(), z.union([z.string().max(2000), z.number()])]),
});
export type CursorState = z.infer<typeof CursorState>;

const SIGNATURE_BYTES = 16;

/**
 * Opaque cursors: the state as base64url JSON plus an HMAC over it, the listing and the project, so a cursor cannot
 * be edited, forged, or replayed on another listing or project. Anything that does not verify is a 400.
 */
export function createCursorCodec(secret: string) {
  const sign = (listing: string, projectId: string, body: string) =>
    createHmac('sha256', secret).update(`cursor\0${listing}\0${projectId}\0${body}`).digest().subarray(0, SIGNATURE_BYTES);
  return {
    encode(listing: string, projectId: string, state: CursorState): string {
      const body = Buffer.from(JSON.stringify(state)).toString('base64url');
      return `${body}.${sign(listing, projectId, body).toString('base64url')}`;
    },
    decode(listing: string, projectId: string, cursor: string): CursorState {
      const [body, signature, ...rest] = cursor.split('.');
      const given = Buffer.from(signature ?? '', 'base64url');
      const ok = rest.length === 0 && body && given.length === SIGNATURE_BYTES && timingSafeEqual(given, sign(listing, projectId, body));
      if (!ok) throw invalidCursor();
      let state: unknown;
      try {
        state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalidCursor();
      }
      const parsed = CursorState.safeParse(state);
      if (!parsed.success) throw invalidCursor();
      return parsed.data;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

function invalidCursor() {
  return new Invalid('Invalid query parameters', [{ message: 'cursor: is not a cursor this listing returned (use nextCursor as given)' }]);
}
