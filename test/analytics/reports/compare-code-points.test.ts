import { compareCodePoints } from '../../../src/analytics/reports/compare-code-points.js';
import { rng } from '../../support/rollup-fixtures.js';

/** Code-point order the slow way: the strings' code points compared one by one. */
function byCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

describe('compareCodePoints', () => {
  it('orders a character above U+FFFF after U+E000–U+FFFF, as UTF-8 bytes do (UTF-16 units do not)', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF5E')).toBeGreaterThan(0);
    expect(compareCodePoints('\uFF5E', '\u{1F600}')).toBeLessThan(0);
    expect(Buffer.compare(Buffer.from('\u{1F600}'), Buffer.from('\uFF5E'))).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    // one side with no unit from U+D800 up: the native comparison's answer
    expect(compareCodePoints('\u{1F600}', 'z')).toBeGreaterThan(0);
    expect(compareCodePoints('z', '\uFF5E')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('agrees with comparing code points and with comparing UTF-8 bytes on random strings', () => {
    const random = rng(3);
    const alphabet = ['a', 'z', 'é', '\u4E2D', '\uD7FF', '\uE000', '\uFF5E', '\u{10000}', '\u{1F600}', '\u{10FFFF}'];
    const word = () =>
      Array.from({ length: Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const [a, b] = [word(), word()];
      expect({ a, b, order: Math.sign(compareCodePoints(a, b)) }).toEqual({
        a,
        b,
        order: Math.sign(byCodePoints(a, b)),
      });
      expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});
