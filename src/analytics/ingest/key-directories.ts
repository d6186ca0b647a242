import crypto, { type JsonWebKey } from 'node:crypto';
import fs from 'node:fs';
import type { FetchedDirectory } from './fetch-key-directory.js';
import { waitAtMost } from '../../clock.js';
import type { DirectoryKey, TrustedDirectory } from './verify-signature.js';

/** One operator's key directory, as the shipped snapshot and `scribe ranges import` hold it. */
export interface KnownDirectory {
  /** the directory's URL (`https://<operator host>/.well-known/http-message-signatures-directory`) */
  url: string;
  operator: string;
  /** Scribe's AI agent names (ai-agents.json) whose signatures the directory's keys may make */
  agents: string[];
  /** JWKs held for offline use; the fetched copy supersedes them */
  keys: JsonWebKey[];
  retrievedAt?: string | null;
}

const SHIPPED = new URL('./ai-user-agents/key-directories.json', import.meta.url);
/** a failed fetch is tried again after this long; meanwhile the keys held are used */
const RETRY_AFTER_MS = 5 * 60_000;

/** The RFC 7638 thumbprint of an Ed25519 JWK (the keyid web-bot-auth signs with), or undefined for other keys. */
export function ed25519Thumbprint(jwk: JsonWebKey): string | undefined {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return undefined;
  const canonical = JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: jwk.x });
  return crypto.createHash('sha256').update(canonical).digest('base64url');
}

/** The Ed25519 keys of a JWK list by thumbprint; keys of other types or that do not load are left out. */
function loadKeys(jwks: JsonWebKey[]): Map<string, crypto.KeyObject> {
  const keys = new Map<string, crypto.KeyObject>();
  for (const jwk of jwks) {
    const id = ed25519Thumbprint(jwk);
    if (!id) continue;
    try {
      keys.set(id, crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    } catch {
      // a malformed x: not a key
    }
  }
  return keys;
}

interface Held {
  known: KnownDirectory;
  agents: string[];
  keys: Map<string, DirectoryKey>;
  /** fresh until (Cache-Control of the last good fetch); 0: never fetched */
  freshUntil: number;
  retryAt: number;
  fetching?: Promise<void>;
}

/**
 * The key directories Scribe trusts, per URL, with the keys it holds for each: the shipped or imported copy, then
 * what fetches bring (kept as long as the directory's Cache-Control says). A failed fetch keeps the keys held; a
 * key a good fetch no longer lists is retired from that moment (it still verifies views made before).
 */
export class KeyDirectories {
  private readonly held = new Map<string, Held>();

  constructor(
    known: KnownDirectory[],
    private readonly params: {
      now: () => number;
      /** absent: nothing is fetched (the shipped and imported keys only) */
      fetchDirectory?: (url: string) => Promise<FetchedDirectory>;
      onError?: (url: string, err: Error) => void;
    },
  ) {
    this.use(known);
  }

  /** The shipped snapshot, or a file in its format. */
  static readSnapshot(file: string | URL = SHIPPED): KnownDirectory[] {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { directories: KnownDirectory[] }).directories;
  }

  /** Adds directories or replaces their agents and offline keys (an import); keys fetched since stay. */
  use(known: KnownDirectory[]): void {
    for (const k of known) {
      const held = this.held.get(k.url);
      const agents = [...k.agents];
      if (!held) {
        const keys = new Map([...loadKeys(k.keys)].map(([id, key]) => [id, { key }]));
        this.held.set(k.url, { known: k, agents, keys, freshUntil: 0, retryAt: 0 });
        continue;
      }
      held.known = k;
      held.agents = agents;
      for (const [id, key] of loadKeys(k.keys)) if (!held.keys.has(id)) held.keys.set(id, { key });
    }
  }

  get directories(): KnownDirectory[] {
    return [...this.held.values()].map((h) => h.known);
  }

  /** What a signature from `url` is checked against, or undefined when Scribe does not trust the directory. */
  lookUp(url: string): TrustedDirectory | undefined {
    const held = this.held.get(url);
    if (!held) return undefined;
    return { agents: held.agents, keys: held.keys, current: held.freshUntil > this.params.now() };
  }

  /**
   * Fetches the trusted directories among `urls` whose keys are not fresh (one fetch per directory at a time),
   * waiting at most `waitMs` for them: what is not back by then is used by later batches.
   */
  async refresh(urls: Iterable<string>, waitMs: number): Promise<void> {
    const fetchDirectory = this.params.fetchDirectory;
    if (!fetchDirectory) return;
    const now = this.params.now();
    const pending: Promise<void>[] = [];
    for (const url of new Set(urls)) {
      const held = this.held.get(url);
      if (!held || held.freshUntil > now) continue;
      if (!held.fetching && held.retryAt <= now) {
        held.fetching = fetchDirectory(url)
          .then((fetched) => this.keep(held, fetched))
          .catch((err: Error) => {
            held.retryAt = this.params.now() + RETRY_AFTER_MS;
            this.params.onError?.(url, err);
          })
          .finally(() => {
            held.fetching = undefined;
          });
      }
      if (held.fetching) pending.push(held.fetching);
    }
    await waitAtMost(pending, waitMs);
  }

  private keep(held: Held, fetched: FetchedDirectory): void {
    const now = this.params.now();
    const keys = loadKeys(fetched.keys);
    for (const [id, entry] of held.keys) if (!keys.has(id) && entry.retiredAt === undefined) entry.retiredAt = now;
    for (const [id, key] of keys) held.keys.set(id, { key });
    held.freshUntil = now + fetched.maxAgeMs;
    held.retryAt = 0;
  }
}
