/**
 * ClickHouse's visitor id: the first 64 bits of the keyed visitor hash (HMAC-SHA-256, kept as 22 base64url
 * characters), as an unsigned decimal. Ids are as uniform as the HMAC, so among n visitors of one project the expected
 * number of colliding pairs is about n² / 2^65 (1e-8 at a million visitors, 3e-4 at a hundred million); a collision
 * can only merge two visitors into one, never invent one.
 */
export function visitorId(hash: string): string {
  const bytes = Buffer.from(hash, 'base64url');
  if (bytes.length < 8) throw new Error(`visitor hash ${JSON.stringify(hash)} is shorter than 64 bits`);
  return bytes.readBigUInt64BE(0).toString();
}
