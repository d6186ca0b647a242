import {
  createCursorCodec,
  CursorPaging,
  type CursorState,
  type Listing,
  type PageRequest,
} from '../../../src/analytics/signals/cursor-paging.js';
import type { ListWindow } from '../../../src/analytics/signals/store/list-window.js';
import { Invalid } from '../../../src/errors.js';
import { fixedClock } from '../../support/clock.js';

const codec = createCursorCodec('secret-one-secret-one-secret-one-00');
const state: CursorState = {
  from: 0,
  to: 86_400_000,
  filters: 'source=;status=',
  snapshot: 42,
  changes: 3,
  after: [7, 'rate limits'],
};

describe('page cursors', () => {
  it('round-trip the state of the listing and project they were made for', () => {
    const cursor = codec.encode('searches', 'prj_a', state);
    expect(codec.decode('searches', 'prj_a', cursor)).toEqual(state);
    expect(cursor).toMatch(/^[\w-]+\.[\w-]{22}$/);
  });

  it('refuse another listing, project or server secret', () => {
    const cursor = codec.encode('searches', 'prj_a', state);
    expect(() => codec.decode('feedback', 'prj_a', cursor)).toThrow(Invalid);
    expect(() => codec.decode('searches', 'prj_b', cursor)).toThrow(Invalid);
    expect(() => createCursorCodec('another-secret-another-secret-0000').decode('searches', 'prj_a', cursor)).toThrow(
      Invalid,
    );
  });

  it('refuse edits and garbage as a 400-type error, whatever the shape', () => {
    const cursor = codec.encode('feedback', 'prj_a', { ...state, after: [1_700_000_000_000, 12] });
    const [body, signature] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...state, snapshot: 1e9 })).toString('base64url');
    for (const bad of [
      '',
      '.',
      '..',
      body,
      `${forgedBody}.${signature}`,
      `${body}.${signature}.`,
      `${body}.${'A'.repeat(22)}`,
      `${body}.${signature.slice(1)}`,
      '💥.💥',
    ]) {
      expect(() => codec.decode('feedback', 'prj_a', bad)).toThrow(Invalid);
    }
  });

  it('refuse a cursor that is not byte for byte the one issued, even where base64url decoding would not notice', () => {
    const cursor = codec.encode('feedback', 'prj_a', state);
    const [body, signature] = cursor.split('.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // the last character of 16 bytes carries 2 bits: flipping one of its 4 unused bits decodes to the same bytes
    const unusedBit = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1]}`;
    expect(Buffer.from(unusedBit, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    for (const altered of [
      `${cursor}=`,
      `${cursor}==`,
      `${cursor}!`,
      `${cursor} `,
      `${body}.!${signature}`,
      `${body}.${signature.slice(0, 10)}\n${signature.slice(10)}`,
      `${body}.${unusedBit}`,
    ]) {
      expect(() => codec.decode('feedback', 'prj_a', altered)).toThrow(Invalid);
    }
    expect(codec.decode('feedback', 'prj_a', cursor)).toEqual(state);
  });
});

describe('cursor paging', () => {
  const DAY = 86_400_000;
  const clock = fixedClock('2026-03-10T00:00:00.000Z');
  const paging = new CursorPaging({ secret: 'paging-secret-paging-secret-paging-00', clock });
  // rows of a listing ordered by [score desc, name asc], as the feedback-by-page and searches listings are
  const rows = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name, i) => ({
    id: i + 1,
    score: 10 - Math.floor(i / 2),
    name,
  }));
  const fetches: { window: ListWindow; after: [number, string] | undefined; limit: number }[] = [];
  let snapshot = 7;
  let changes = 2;
  const listing = (filters = ''): Listing<(typeof rows)[number], [number, string]> => ({
    name: 'test',
    filters,
    snapshot: async () => ({ snapshot, changes }),
    fetch: async (params) => {
      fetches.push(params);
      const { window, after, limit } = params;
      return rows
        .filter((r) => r.id <= window.snapshot)
        .filter((r) => !after || r.score < after[0] || (r.score === after[0] && r.name > after[1]))
        .slice(0, limit);
    },
    keyOf: (r) => [r.score, r.name],
  });
  const walk = async (request: PageRequest) => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await paging.page({ projectId: 'prj_a', request: { ...request, cursor }, listing: listing() });
      expect(page.hasMore).toBe(page.nextCursor !== null);
      pages.push(page.rows.map((r) => r.name));
      cursor = page.nextCursor ?? undefined;
      // rows arriving, and rows changed, after the first page stay out of this walk
      snapshot = 99;
      changes = 40;
    } while (cursor);
    return pages;
  };

  beforeEach(() => {
    fetches.length = 0;
    snapshot = 7;
    changes = 2;
  });

  it('reads one row more than a page, and pages by keyset until the last row, each row once', async () => {
    rows.push({ id: 8, score: 1, name: 'late' });
    try {
      expect(await walk({ limit: 3 })).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
    } finally {
      rows.pop();
    }
    expect(fetches.map((f) => [f.after, f.limit])).toEqual([
      [undefined, 4],
      [[9, 'c'], 4],
      [[8, 'f'], 4],
    ]);
    expect(new Set(fetches.map((f) => `${f.window.snapshot}/${f.window.changes}`))).toEqual(new Set(['7/2']));
  });

  it('answers a last page without a cursor, and an exact fit without another page', async () => {
    expect(await walk({ limit: 7 })).toEqual([['a', 'b', 'c', 'd', 'e', 'f', 'g']]);
    expect(await walk({ limit: 100 })).toEqual([['a', 'b', 'c', 'd', 'e', 'f', 'g']]);
  });

  it('covers the 30 days before dateTo (default: now), and keeps the first page range on later pages', async () => {
    await paging.page({ projectId: 'prj_a', request: { limit: 1 }, listing: listing() });
    const now = clock().getTime();
    expect(fetches[0].window).toEqual({ projectId: 'prj_a', from: now - 30 * DAY, to: now, snapshot: 7, changes: 2 });
    const first = await paging.page({
      projectId: 'prj_a',
      request: { limit: 1, dateTo: DAY * 100 },
      listing: listing(),
    });
    clock.advance(DAY);
    await paging.page({ projectId: 'prj_a', request: { limit: 1, cursor: first.nextCursor! }, listing: listing() });
    expect(fetches[2].window).toEqual({ projectId: 'prj_a', from: DAY * 70, to: DAY * 100, snapshot: 7, changes: 2 });
  });

  it('refuses an empty range, and a cursor with other filters or range than it was made for', async () => {
    await expect(
      paging.page({ projectId: 'prj_a', request: { limit: 1, dateFrom: DAY, dateTo: DAY }, listing: listing() }),
    ).rejects.toThrow(Invalid);
    const { nextCursor } = await paging.page({ projectId: 'prj_a', request: { limit: 1 }, listing: listing('x=1') });
    const cursor = nextCursor!;
    for (const [request, filters] of [
      [{ limit: 1, cursor }, 'x=2'],
      [{ limit: 1, cursor, dateFrom: 0 }, 'x=1'],
      [{ limit: 1, cursor, dateTo: DAY }, 'x=1'],
    ] as const) {
      await expect(paging.page({ projectId: 'prj_a', request, listing: listing(filters) })).rejects.toMatchObject({
        details: [{ message: 'cursor: was returned for other dateFrom, dateTo or filters than these' }],
      });
    }
    await expect(
      paging.page({ projectId: 'prj_b', request: { limit: 1, cursor }, listing: listing('x=1') }),
    ).rejects.toThrow(Invalid);
    const again = await paging.page({ projectId: 'prj_a', request: { limit: 1, cursor }, listing: listing('x=1') });
    expect(again.rows.map((r) => r.name)).toEqual(['b']);
  });
});
