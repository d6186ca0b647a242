/** Code-point order: the same on every database and locale, so report rows sort alike everywhere. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
