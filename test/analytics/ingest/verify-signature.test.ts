import crypto from 'node:crypto';
import type { Ed25519Signer } from 'web-bot-auth/crypto';
import { ed25519Thumbprint } from '../../../src/analytics/ingest/key-directories.js';
import {
  directoryUrl,
  type DirectoryKey,
  type TrustedDirectory,
  verifySignature,
} from '../../../src/analytics/ingest/verify-signature.js';
import { operatorKey, signedHeaders } from '../../support/web-bot-auth-signer.js';

const T = Date.parse('2026-11-24T12:00:00Z');
const URL_ = 'https://docs.example.com/guide/start';
const AGENT_HEADER = '"https://agent.example"';
const DIRECTORY = 'https://agent.example/.well-known/http-message-signatures-directory';

describe('verifySignature', () => {
  let signer: Ed25519Signer;
  let keyid: string;
  let privateKey: crypto.KeyObject;
  let keys: Map<string, DirectoryKey>;
  const directory =
    (over: Partial<TrustedDirectory> = {}) =>
    (url: string) =>
      url === DIRECTORY ? { agents: ['ChatGPT Agent'], keys, current: true, ...over } : undefined;

  beforeAll(async () => {
    const key = await operatorKey();
    signer = key.signer;
    keyid = key.keyid;
    privateKey = key.privateKey;
    keys = new Map([[keyid, { key: crypto.createPublicKey({ key: key.publicJwk, format: 'jwk' }) }]]);
  });

  const sign = (over: { created?: number; expires?: number; agentHeader?: string; components?: string[] } = {}) =>
    signedHeaders({
      url: URL_,
      signer,
      signatureAgent: over.agentHeader ?? AGENT_HEADER,
      created: over.created ?? T - 10_000,
      expires: over.expires ?? T + 50_000,
      components: over.components,
    });
  const check = async (
    headers: Awaited<ReturnType<typeof sign>>,
    at = T,
    agent: string | undefined = 'ChatGPT Agent',
  ) => verifySignature({ headers, request: { timestamp: at, url: URL_ }, agent, directory: directory() });

  it('uses the JWK thumbprint web-bot-auth signs with as the keyid', () => {
    const jwk = keys.get(keyid)!.key.export({ format: 'jwk' });
    expect(ed25519Thumbprint(jwk)).toBe(keyid);
  });

  it('verifies a signature made by the maintained web-bot-auth package, at the time of the request', async () => {
    const headers = await sign();
    expect(await check(headers)).toEqual({ outcome: 'valid', directory: DIRECTORY, keyid, agent: 'ChatGPT Agent' });
  });

  it('names the directory agent when the user agent claimed none (a browser user agent)', async () => {
    expect(await check(await sign(), T, undefined)).toMatchObject({ outcome: 'valid', agent: 'ChatGPT Agent' });
  });

  it('refuses a forged signature: another key under the operator keyid', async () => {
    const other = await operatorKey();
    const forged = await signedHeaders({
      url: URL_,
      signer: Object.assign(other.signer, { keyid }),
      signatureAgent: AGENT_HEADER,
      created: T - 10_000,
      expires: T + 50_000,
    });
    expect(await check(forged)).toEqual({ outcome: 'invalid', reason: 'signature does not verify' });
  });

  it('refuses a signature for another site (the @authority is covered)', async () => {
    const headers = await sign();
    const result = verifySignature({
      headers,
      request: { timestamp: T, url: '/guide/start', authority: 'evil.example' },
      agent: 'ChatGPT Agent',
      directory: directory(),
    });
    expect(result.outcome).toBe('invalid');
  });

  it('refuses an expired signature, and one replayed after its window', async () => {
    const headers = await sign({ created: T - 600_000, expires: T - 300_000 });
    expect(await check(headers)).toEqual({ outcome: 'invalid', reason: 'expired at the time of the request' });
    const fresh = await sign();
    // the same headers sent again an hour later
    expect(await check(fresh, T + 3_600_000)).toEqual({
      outcome: 'invalid',
      reason: 'expired at the time of the request',
    });
    // and before it was made
    expect(await check(fresh, T - 3_600_000)).toEqual({ outcome: 'invalid', reason: 'created after the request' });
  });

  it('refuses a validity window longer than a day', async () => {
    expect(await check(await sign({ created: T - 1000, expires: T + 2 * 86_400_000 }))).toEqual({
      outcome: 'invalid',
      reason: 'validity window refused',
    });
  });

  it('refuses a signature that does not cover signature-agent', async () => {
    const headers = await signedHeaders({
      url: URL_,
      signer,
      signatureAgent: AGENT_HEADER,
      created: T - 1000,
      expires: T + 1000,
      components: ['@authority'],
    }).catch(() => undefined);
    // web-bot-auth itself refuses to sign so; hand the header a signature that leaves it out
    const base = await sign();
    const input = base['signature-input']!.replace('"@authority" "signature-agent"', '"@authority"');
    expect(headers).toBeUndefined();
    expect(await check({ ...base, 'signature-input': input })).toEqual({
      outcome: 'invalid',
      reason: 'the signature must cover @authority and signature-agent',
    });
  });

  it('says what is malformed rather than throwing', async () => {
    const base = await sign();
    const cases = [
      { ...base, 'signature-input': 'sig1=("@authority" "signature-agent";created=' },
      { ...base, signature: 'sig1=:not base64!:' },
      { ...base, signature: 'other=:AAAA:' },
      { ...base, 'signature-agent': '"https://agent.example' },
      { ...base, 'signature-agent': '"ftp://agent.example"' },
    ];
    for (const headers of cases) expect((await check(headers)).outcome).toBe('invalid');
  });

  it('leaves a signature from an untrusted directory, or for another agent, to the other checks', async () => {
    const headers = await sign({ agentHeader: '"https://elsewhere.example"' });
    expect((await check(headers)).outcome).toBe('unchecked');
    expect((await check(await sign(), T, 'GPTBot')).outcome).toBe('unchecked');
    expect((await check({ signature: 'sig1=:AAAA:' })).outcome).toBe('unchecked');
  });

  it('calls an unknown keyid a forgery only against a fresh copy of the directory', async () => {
    const headers = await sign();
    const missing = (current: boolean) =>
      verifySignature({
        headers,
        request: { timestamp: T, url: URL_ },
        agent: 'ChatGPT Agent',
        directory: directory({ keys: new Map(), current }),
      }).outcome;
    expect(missing(true)).toBe('invalid');
    expect(missing(false)).toBe('unchecked');
  });

  it('honours a retired key for requests made before it left the directory', async () => {
    const headers = await sign();
    const retired = new Map([[keyid, { key: keys.get(keyid)!.key, retiredAt: T + 1 }]]);
    const at = (timestamp: number) =>
      verifySignature({
        headers,
        request: { timestamp, url: URL_ },
        agent: 'ChatGPT Agent',
        directory: directory({ keys: retired }),
      }).outcome;
    expect(at(T)).toBe('valid');
    expect(at(T + 2)).toBe('invalid');
  });

  it('reads the newer drafts dictionary form of Signature-Agent, covering the member its key names', () => {
    const created = Math.floor(T / 1000) - 5;
    const params = `("@authority" "signature-agent";key="agent1");created=${created};expires=${created + 60};keyid="${keyid}";tag="web-bot-auth"`;
    // RFC 9421 §2.1.2: a dictionary member is covered as its serialized value
    const base = [
      '"@authority": docs.example.com',
      '"signature-agent";key="agent1": "https://agent.example"',
      `"@signature-params": ${params}`,
    ].join('\n');
    const signature = crypto.sign(null, Buffer.from(base), privateKey).toString('base64');
    const headers = {
      signature: `sig1=:${signature}:`,
      'signature-input': `sig1=${params}`,
      'signature-agent': 'agent1="https://agent.example", agent2="https://other.example"',
    };
    expect(
      verifySignature({ headers, request: { timestamp: T, url: URL_ }, agent: 'ChatGPT Agent', directory: directory() })
        .outcome,
    ).toBe('valid');
    const swapped = { ...headers, 'signature-agent': 'agent1="https://other.example"' };
    expect(
      verifySignature({
        headers: swapped,
        request: { timestamp: T, url: URL_ },
        agent: 'ChatGPT Agent',
        directory: directory(),
      }).outcome,
    ).toBe('unchecked');
  });
});

describe('directoryUrl', () => {
  it('appends the well-known path to an origin and keeps a full directory URL', () => {
    expect(directoryUrl('https://chatgpt.com')).toBe(
      'https://chatgpt.com/.well-known/http-message-signatures-directory',
    );
    expect(directoryUrl('https://a.example/keys/dir')).toBe('https://a.example/keys/dir');
    expect(directoryUrl('javascript:alert(1)')).toBeUndefined();
    expect(directoryUrl('not a url')).toBeUndefined();
  });
});
