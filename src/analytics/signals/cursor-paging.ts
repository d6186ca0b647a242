import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { Invalid } from '../../errors.js';
import type { ListWindow, Snapshot } from './store/list-window.js';
import { queryRange } from '../../calendar.js';

/**
 * Where a paged listing stands, frozen at its first page: the range and filters it was made for, the highest row id
 * and change id then (later rows are left out and later changes not applied, so totals and order cannot shift between
 * pages), and the sort key of the last row returned (keyset paging: no duplicates or gaps, however deep).
 */
export const CursorState = z.object({
  from: z.number().int(),
  to: z.number().int(),
  /** the filters, as one canonical string */
  filters: z.string().max(200),
  snapshot: z.number().int().min(0),
  changes: z.number().int().min(0),
  /** sort key of the last row returned: [number, string] or [number, number] */
  after: z.tuple([z.number(), z.union([z.string().max(2000), z.number()])]),
});
export type CursorState = z.infer<typeof CursorState>;

/** The sort key of a listing's row, as a cursor carries it. */
export type Keyset = CursorState['after'];

const SIGNATURE_BYTES = 16;
/** a base64url body, a dot and the base64url signature, unpadded */
const CURSOR_SHAPE = new RegExp(`^([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]{${Math.ceil((SIGNATURE_BYTES * 8) / 6)}})$`);

/**
 * Opaque cursors: the state as base64url JSON plus an HMAC over it, the listing and the project, so a cursor cannot
 * be edited, forged, or replayed on another listing or project. Anything that does not verify is a 400.
 */
export function createCursorCodec(secret: string) {
  const sign = (listing: string, projectId: string, body: string) =>
    createHmac('sha256', secret)
      .update(`cursor\0${listing}\0${projectId}\0${body}`)
      .digest()
      .subarray(0, SIGNATURE_BYTES);
  return {
    encode(listing: string, projectId: string, state: CursorState): string {
      const body = Buffer.from(JSON.stringify(state)).toString('base64url');
      return `${body}.${sign(listing, projectId, body).toString('base64url')}`;
    },
    decode(listing: string, projectId: string, cursor: string): CursorState {
      // Node's base64url decoding skips characters outside the alphabet and padding, and ignores the unused bits of
      // the last character: only the exact form is taken, so a cursor is accepted only byte for byte as issued
      const [, body, signature] = CURSOR_SHAPE.exec(cursor) ?? [];
      const given = Buffer.from(signature ?? '', 'base64url');
      const ok =
        body && given.toString('base64url') === signature && timingSafeEqual(given, sign(listing, projectId, body));
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

function invalidCursor() {
  return new Invalid('Invalid query parameters', [
    { message: 'cursor: is not a cursor this listing returned (use nextCursor as given)' },
  ]);
}

/** What a caller asks of a paged listing: a range (epoch ms, `dateTo` exclusive), or the cursor of the page before. */
export interface PageRequest {
  dateFrom?: number;
  dateTo?: number;
  cursor?: string;
  /** rows per page */
  limit: number;
}

/** What differs between listings: their name, filters, rows and sort key. */
export interface Listing<Row, Key extends Keyset> {
  /** names the listing in its cursors, so one listing's cursor is refused by another */
  name: string;
  /** the filters, as one canonical string */
  filters: string;
  /** the highest row id and change id now: what a first page freezes the listing at */
  snapshot(): Promise<Snapshot>;
  /** up to `limit` rows of the window in the listing's order, after the row with sort key `after` when given */
  fetch(params: { window: ListWindow; after: Key | undefined; limit: number }): Promise<Row[]>;
  /** a row's sort key */
  keyOf(row: Row): Key;
}

/** One page of a listing, with the window it was read from. */
export interface CursorPage<Row> {
  rows: Row[];
  /** the cursor of the next page; null on the last */
  nextCursor: string | null;
  hasMore: boolean;
  window: ListWindow;
}

/** Keyset paging with signed cursors, for every reader-signal listing. */
export class CursorPaging {
  private readonly codec: ReturnType<typeof createCursorCodec>;

  constructor(private readonly params: { secret: string; clock: Clock }) {
    this.codec = createCursorCodec(params.secret);
  }

  /** One page: one row more than asked for is read, to know whether another page follows. */
  async page<Row, Key extends Keyset>(params: {
    projectId: string;
    request: PageRequest;
    listing: Listing<Row, Key>;
  }): Promise<CursorPage<Row>> {
    const { projectId, request, listing } = params;
    const { after, ...start } = await this.start(params);
    const window = { projectId, from: start.from, to: start.to, snapshot: start.snapshot, changes: start.changes };
    // the signature ties a cursor to its listing, so its sort key has this listing's shape
    const rows = await listing.fetch({ window, after: after as Key | undefined, limit: request.limit + 1 });
    const page = rows.slice(0, request.limit);
    const last = page.at(-1);
    const hasMore = rows.length > request.limit;
    const nextCursor =
      hasMore && last ? this.codec.encode(listing.name, projectId, { ...start, after: listing.keyOf(last) }) : null;
    return { rows: page, nextCursor, hasMore, window };
  }

  /**
   * Where a listing starts: from its cursor (range, filters and snapshot as on the first page; explicit
   * parameters must agree with them) or, on a first page, the requested range and the rows as they are now.
   */
  private async start(params: {
    projectId: string;
    request: PageRequest;
    listing: Pick<Listing<unknown, Keyset>, 'name' | 'filters' | 'snapshot'>;
  }): Promise<Omit<CursorState, 'after'> & { after: Keyset | undefined }> {
    const { projectId, request, listing } = params;
    if (request.cursor !== undefined) {
      const state = this.codec.decode(listing.name, projectId, request.cursor);
      const differs =
        state.filters !== listing.filters ||
        (request.dateFrom !== undefined && request.dateFrom !== state.from) ||
        (request.dateTo !== undefined && request.dateTo !== state.to);
      if (differs)
        throw new Invalid('Invalid query parameters', [
          { message: 'cursor: was returned for other dateFrom, dateTo or filters than these' },
        ]);
      return state;
    }
    const { from, to } = queryRange({
      dateFrom: request.dateFrom,
      dateTo: request.dateTo,
      now: this.params.clock().getTime(),
    });
    return { from, to, filters: listing.filters, ...(await listing.snapshot()), after: undefined };
  }
}
