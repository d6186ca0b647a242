/**
 * Web Bot Auth verification benchmark (not a test): distinct signed requests, made by the `web-bot-auth` package
 * with real Ed25519 keys, verified by verifySignature with the directory's keys already held (cached), on one core.
 * Prints verifications/s, and beside it the same machine's bare `crypto.verify` rate over the same signature bases:
 * the ceiling any Ed25519 verifier on Node's crypto has here.
 *   npm run bench:signatures
 *   npm run bench:signatures -- --requests 20000 --rounds 3
 */
import crypto from 'node:crypto';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { type DirectoryKey, type SignatureHeaders, verifySignature } from '../src/analytics/ingest/verify-signature.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const REQUESTS = Number(arg('requests', '20000'));
const ROUNDS = Number(arg('rounds', '3'));
const DIRECTORY = 'https://agent.example/.well-known/http-message-signatures-directory';
const T = Date.parse('2026-11-24T12:00:00Z');

async function main() {
  const keys = new Map<string, DirectoryKey>();
  const signers: Ed25519Signer[] = [];
  for (let i = 0; i < 4; i++) {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const signer = await Ed25519Signer.fromJWK(privateKey.export({ format: 'jwk' }));
    keys.set(signer.keyid, { key: publicKey });
    signers.push(signer);
  }
  const trusted = { agents: ['ChatGPT Agent'], keys, current: true };
  const requests: { headers: SignatureHeaders; url: string }[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const url = `https://docs.example.com/page/${i}`;
    const signed = await signatureHeaders(
      { method: 'GET', url, headers: { 'signature-agent': '"https://agent.example"' } },
      signers[i % signers.length],
      { created: new Date(T - 1000), expires: new Date(T + 59_000) },
    );
    requests.push({
      url,
      headers: {
        signature: signed.Signature,
        'signature-input': signed['Signature-Input'],
        'signature-agent': '"https://agent.example"',
      },
    });
  }
  const verifyAll = () => {
    let valid = 0;
    for (const { headers, url } of requests) {
      const check = verifySignature({
        headers,
        request: { timestamp: T, url },
        agent: 'ChatGPT Agent',
        directory: (u) => (u === DIRECTORY ? trusted : undefined),
      });
      if (check.outcome === 'valid') valid++;
    }
    return valid;
  };
  // the bare primitive over equivalent inputs: one signature per request, as the verifier checks it
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const bases = requests.map((r) => Buffer.from(`"@authority": docs.example.com\n"@signature-params": ${r.url}`));
  const sigs = bases.map((b) => crypto.sign(null, b, privateKey));
  const bareAll = () => {
    let ok = 0;
    for (let i = 0; i < bases.length; i++) if (crypto.verify(null, bases[i], publicKey, sigs[i])) ok++;
    return ok;
  };
  verifyAll();
  // rates per second of this process's CPU time (one core), beside wall-clock ones: the machine may be shared
  const timed = (run: () => number) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const count = run();
    const used = process.cpuUsage(cpu);
    return {
      count,
      wall: REQUESTS / ((performance.now() - start) / 1000),
      cpu: REQUESTS / ((used.user + used.system) / 1e6),
    };
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const ours = timed(verifyAll);
    if (ours.count !== REQUESTS) throw new Error(`only ${ours.count} of ${REQUESTS} verified`);
    const bare = timed(bareAll);
    console.log(
      `round ${round}: ${Math.round(ours.cpu)} verifications per CPU-second (${Math.round(ours.wall)}/s wall; ${REQUESTS} distinct signatures, keys cached); bare crypto.verify ${Math.round(bare.cpu)} per CPU-second (${Math.round(bare.wall)}/s wall); ratio ${(ours.cpu / bare.cpu).toFixed(2)}`,
    );
  }
}

await main();
