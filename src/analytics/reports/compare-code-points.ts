/**
 * Code-point order: the same on every database and locale (SQLite's BINARY and PostgreSQL's "C" compare UTF-8
 * bytes, which is this order), so report rows sort alike everywhere. JavaScript's `<` compares UTF-16 units, which
 * puts a character above U+FFFF (a surrogate pair) before U+E000–U+FFFF: surrogates are moved above those here.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  // the orders differ only where both strings hold a unit from U+D800 up: otherwise the native comparison is right
  if (!HIGH_UNIT.test(a) || !HIGH_UNIT.test(b)) return a < b ? -1 : 1;
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** a surrogate or a unit from U+E000 up (no `u` flag: units, not code points) */
const HIGH_UNIT = /[\uD800-\uFFFF]/;

/** A UTF-16 unit's place in code-point order: surrogates (U+D800–U+DFFF) above every other unit. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
