import { randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 text (rejection-free: randomInt is unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** Injectable id maker: `prefix_` + 20 base62 characters (~119 bits). */
export type IdFactory = (prefix: string) => string;
export const randomId: IdFactory = (prefix) => `${prefix}_${randomBase62(20)}`;

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
