import { generateKeyPairSync } from 'node:crypto';

let pem: string | undefined;

/** A GitHub App private key (PEM) for tests that only need configuration to be complete; made once per file. */
export function testAppPrivateKey(): string {
  pem ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  return pem;
}
