import { characterCount, normalizeComment, normalizeSearchQuery } from '../../../src/analytics/signals/normalize.js';

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

  it('removes NUL from free text and makes an unpaired surrogate U+FFFD, so what is stored is what is read back', () => {
    expect(normalizeComment('Step\u0000 3 \ud83d\ude00\ud800')).toBe('Step 3 \ud83d\ude00\ufffd');
    expect(normalizeSearchQuery('Rate\u0000LIMITS\udfff')).toBe('rate limits\ufffd');
  });

  it('counts characters as code points: an emoji is one, as is each accent mark and an unpaired surrogate', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('\ud83d\ude00'.repeat(1500))).toBe(1500);
    expect(characterCount('Cafe\u0301')).toBe(5);
    expect(characterCount('a\ud800b')).toBe(3);
  });
});
