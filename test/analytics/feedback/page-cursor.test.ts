import { createCursorCodec, type CursorState } from '../../../src/analytics/feedback/page-cursor.js';
import { Invalid } from '../../../src/errors.js';

const codec = createCursorCodec('secret-one-secret-one-secret-one-00');
const state: CursorState = { from: 0, to: 86_400_000, filters: 'source=;status=', snapshot: 42, after: [7, 'rate limits'] };

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
    expect(() => createCursorCodec('another-secret-another-secret-0000').decode('searches', 'prj_a', cursor)).toThrow(Invalid);
  });

  it('refuse edits and garbage as a 400-type error, whatever the shape', () => {
    const cursor = codec.encode('feedback', 'prj_a', { ...state, after: [1_700_000_000_000, 12] });
    const [body, signature] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...state, snapshot: 1e9 })).toString('base64url');
    for (const bad of ['', '.', '..', body, `${forgedBody}.${signature}`, `${body}.${signature}.`, `${body}.${'A'.repeat(22)}`, `${body}.${signature.slice(1)}`, '💥.💥']) {
      expect(() => codec.decode('feedback', 'prj_a', bad)).toThrow(Invalid);
    }
  });
});
