import { normalizeComment, normalizeSearchQuery } from '../../../src/analytics/feedback/normalize.js';

describe('reader signal text', () => {
  it('groups search queries case-insensitively with whitespace collapsed', () => {
    expect(normalizeSearchQuery('  Rate\t LIMITS\n')).toBe('rate limits');
    expect(normalizeSearchQuery('Cafe\u0301')).toBe('café');
    expect(normalizeSearchQuery('İstanbul')).toBe('i̇stanbul');
    expect(normalizeSearchQuery(' \u0000 \u202e ')).toBeUndefined();
  });

  it('keeps comments as plain text: markup untouched, controls and bidi overrides removed, empty is none', () => {
    expect(normalizeComment('  <b>bold</b> & "quoted"\r\nline two ')).toBe('<b>bold</b> & "quoted"\nline two');
    expect(normalizeComment('abc\u202edef\u0007')).toBe('abcdef');
    expect(normalizeComment('   ')).toBeNull();
    expect(normalizeComment(undefined)).toBeNull();
  });
});
