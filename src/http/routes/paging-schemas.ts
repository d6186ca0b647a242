import { z } from 'zod';

/**
 * A whole-number query parameter, parsed strictly: ASCII digits only (no sign, space, exponent, fraction, or hex,
 * octal or binary prefix, all of which `Number()` would read), at most `max` (else the largest exact integer).
 * Shared by every listing's `limit` and `offset`.
 */
export function wholeNumber(name: string, min: number, max?: number) {
  const notWhole = `${name} must be a whole number`;
  return z
    .string({ error: notWhole })
    .regex(/^\d+$/, notWhole)
    .transform(Number)
    .refine(
      (n) => n >= min && n <= (max ?? Number.MAX_SAFE_INTEGER),
      `${name} must be between ${min} and ${max ?? Number.MAX_SAFE_INTEGER}`,
    );
}

/** `limit` (1..100, default 20) and `offset` (default 0) of the listings paged by offset: jobs and automation runs. */
export const offsetPaging = {
  limit: wholeNumber('limit', 1, 100).default(20),
  offset: wholeNumber('offset', 0).default(0),
};
