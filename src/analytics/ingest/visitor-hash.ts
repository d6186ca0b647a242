import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { AnalyticsConfig } from '../../config.js';
import { DAY_MS } from '../../calendar.js';

export type VisitorIdentity =
  | { type: 'human'; ip: string; userAgent: string }
  | { type: 'ai'; ip: string; agent: string }
  /** a caller-supplied visitor id (server-side events): the same id is one visitor whether seen as human or AI */
  | { type: 'given'; visitorId: string }
  /** an address alone: not a visitor, but what a per-visitor limit counts by, so a new user agent is no new allowance */
  | { type: 'address'; ip: string };

/**
 * Pseudonymous visitor ids: HMAC-SHA256 keyed by the server secret — or, with rotation, by a key derived from it
 * for the event's day or week — over the project and the identity. Only this hash is stored; it cannot be
 * reversed to an address without the secret, and once a rotated key is forgotten not even with it.
 */
export function createVisitorHasher(params: { secret: string; rotation: AnalyticsConfig['saltRotation'] }) {
  const { secret, rotation } = params;
  // key objects, made once: handing HMAC a string or buffer imports it as a key on every call (a tenth of the
  // hashing's cost, which is a tenth of the ingest's)
  const fixedKey = createSecretKey(Buffer.from(secret, 'utf8'));
  const keys = new Map<number, KeyObject>();
  const keyFor = (timestampMs: number): KeyObject => {
    if (rotation === 'never') return fixedKey;
    const day = Math.floor(timestampMs / DAY_MS);
    // 1970-01-01 was a Thursday: +3 makes weeks start on Monday
    const period = rotation === 'daily' ? day : Math.floor((day + 3) / 7);
    let key = keys.get(period);
    if (!key) {
      if (keys.size > 64) keys.clear();
      key = createSecretKey(createHmac('sha256', secret).update(`visitor-key:${rotation}:${period}`).digest());
      keys.set(period, key);
    }
    return key;
  };
  /** What a visitor's hash is made of: the key of its period, and the text it is computed over. */
  const input = (projectId: string, identity: VisitorIdentity, timestampMs: number): HashInput => {
    const text =
      identity.type === 'human'
        ? `h\0${identity.ip}\0${identity.userAgent}`
        : identity.type === 'ai'
          ? `a\0${identity.ip}\0${identity.agent}`
          : identity.type === 'given'
            ? `v\0${identity.visitorId}`
            : `n\0${identity.ip}`;
    return { key: keyFor(timestampMs), text: `${projectId}\0${text}` };
  };
  return Object.assign(
    (projectId: string, identity: VisitorIdentity, timestampMs: number) =>
      digestHash(input(projectId, identity, timestampMs)),
    { input },
  );
}

/** A visitor's pseudonymous id: 22 base64url characters. */
export type VisitorHasher = (projectId: string, identity: VisitorIdentity, timestampMs: number) => string;

/** A hasher that also tells what a hash is made of, so that a batch can be hashed elsewhere (HashThread). */
export type InputHasher = ReturnType<typeof createVisitorHasher>;

export interface HashInput {
  key: KeyObject;
  text: string;
}

const digestHash = ({ key, text }: HashInput) =>
  createHmac('sha256', key).update(text).digest('base64url').slice(0, 22);

/** Batches smaller than this are hashed in place: the thread's round trip would cost more than it saves. */
const THREAD_MIN_BATCH = 256;

/**
 * Hashes batches of visitors on a thread of their own (hash-thread.mjs), in the order given, so a large batch's
 * hashing leaves the main thread free for the next request; smaller batches are hashed in place. The thread starts
 * with the first large batch and keeps no process alive while idle.
 */
export class HashThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (hashes: string[]) => void; reject: (err: Error) => void }>();
  private nextId = 0;

  hashAll(inputs: HashInput[]): Promise<string[]> {
    if (inputs.length < THREAD_MIN_BATCH) return Promise.resolve(inputs.map(digestHash));
    const keys: KeyObject[] = [];
    const keyOf = new Uint16Array(inputs.length);
    inputs.forEach(({ key }, i) => {
      let at = keys.indexOf(key);
      if (at < 0) at = keys.push(key) - 1;
      keyOf[i] = at;
    });
    const worker = this.start();
    return new Promise((resolve, reject) => {
      if (!this.pending.size) worker.ref();
      this.pending.set(this.nextId, { resolve, reject });
      worker.postMessage({ id: this.nextId++, keys, keyOf, texts: inputs.map((i) => i.text) });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./hash-thread.mjs', import.meta.url));
    worker.unref();
    worker.on('message', ({ id, hashes }: { id: number; hashes: string[] }) => {
      const call = this.pending.get(id)!;
      this.pending.delete(id);
      if (!this.pending.size) worker.unref();
      call.resolve(hashes);
    });
    // a thread that failed or ended fails what it held; the next batch starts another
    const end = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the visitor hash thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
