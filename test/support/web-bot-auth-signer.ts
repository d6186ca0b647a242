import crypto from 'node:crypto';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import type { SignatureHeaders } from '../../src/analytics/ingest/verify-signature.js';

/** An agent operator's Ed25519 key pair, its public JWK and keyid (the JWK thumbprint). */
export async function operatorKey(): Promise<{
  publicJwk: crypto.JsonWebKey;
  signer: Ed25519Signer;
  keyid: string;
  privateKey: crypto.KeyObject;
}> {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' });
  const signer = await Ed25519Signer.fromJWK(privateKey.export({ format: 'jwk' }));
  return { publicJwk, signer, keyid: signer.keyid, privateKey };
}

/**
 * The Web Bot Auth headers the maintained `web-bot-auth` package (Cloudflare's) signs a GET of `url` with: what an
 * agent sends, so Scribe is checked against an implementation other than its own.
 */
export async function signedHeaders(params: {
  url: string;
  signer: Ed25519Signer;
  signatureAgent: string;
  created: number;
  expires: number;
  components?: string[];
}): Promise<SignatureHeaders> {
  const request = { method: 'GET', url: params.url, headers: { 'signature-agent': params.signatureAgent } };
  const signed = await signatureHeaders(request, params.signer, {
    created: new Date(params.created),
    expires: new Date(params.expires),
    ...(params.components && { components: params.components }),
  });
  return {
    signature: signed.Signature,
    'signature-input': signed['Signature-Input'],
    'signature-agent': params.signatureAgent,
  };
}
