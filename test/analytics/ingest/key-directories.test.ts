import crypto from 'node:crypto';
import fs from 'node:fs';
import { signedDirectory } from '../../../src/analytics/ingest/verify-signed-view.js';
import type { FetchedDirectory } from '../../../src/analytics/ingest/fetch-key-directory.js';
import { ed25519Thumbprint, KeyDirectories } from '../../../src/analytics/ingest/key-directories.js';

const URL_ = 'https://agent.example/.well-known/http-message-signatures-directory';
const jwk = () => crypto.generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });

describe('KeyDirectories', () => {
  let now: number;
  let answers: (() => Promise<FetchedDirectory>)[];
  let calls: number;
  const make = (keys: crypto.JsonWebKey[] = []) => {
    calls = 0;
    return new KeyDirectories([{ url: URL_, operator: 'Agent Co', agents: ['ChatGPT Agent'], keys }], {
      now: () => now,
      fetchDirectory: () => {
        calls++;
        return answers.shift()!();
      },
    });
  };
  beforeEach(() => {
    now = 1_000_000;
    answers = [];
  });

  it('trusts only directories it was given, and holds their offline keys as not current', () => {
    const offline = jwk();
    const directories = make([offline, { kty: 'RSA', n: 'x', e: 'AQAB' }]);
    expect(directories.lookUp('https://other.example/.well-known/http-message-signatures-directory')).toBeUndefined();
    const held = directories.lookUp(URL_)!;
    expect([...held.keys.keys()]).toEqual([ed25519Thumbprint(offline)]);
    expect(held.current).toBe(false);
  });

  it('fetches once while the answer is fresh by its Cache-Control, then again', async () => {
    const key = jwk();
    const directories = make();
    answers.push(async () => ({ keys: [key], maxAgeMs: 60_000 }));
    await directories.refresh([URL_, URL_], 1000);
    await directories.refresh([URL_], 1000);
    expect(calls).toBe(1);
    expect(directories.lookUp(URL_)!.current).toBe(true);
    now += 60_001;
    expect(directories.lookUp(URL_)!.current).toBe(false);
    answers.push(async () => ({ keys: [key], maxAgeMs: 60_000 }));
    await directories.refresh([URL_], 1000);
    expect(calls).toBe(2);
  });

  it('keeps the keys it holds when a fetch fails, and waits before trying again', async () => {
    const key = jwk();
    const directories = make([key]);
    answers.push(async () => {
      throw new Error('answered 302, not 200');
    });
    await directories.refresh([URL_], 1000);
    expect(directories.lookUp(URL_)!.keys.has(ed25519Thumbprint(key)!)).toBe(true);
    await directories.refresh([URL_], 1000);
    expect(calls).toBe(1);
  });

  it('retires a key a good fetch no longer lists, from that moment', async () => {
    const [old, rotated] = [jwk(), jwk()];
    const directories = make([old]);
    answers.push(async () => ({ keys: [rotated], maxAgeMs: 60_000 }));
    await directories.refresh([URL_], 1000);
    const keys = directories.lookUp(URL_)!.keys;
    expect(keys.get(ed25519Thumbprint(old)!)!.retiredAt).toBe(now);
    expect(keys.get(ed25519Thumbprint(rotated)!)!.retiredAt).toBeUndefined();
  });

  it('waits no longer than asked for a slow directory, and uses it once it answers', async () => {
    const key = jwk();
    let answer!: (d: FetchedDirectory) => void;
    const directories = make();
    answers.push(() => new Promise((resolve) => (answer = resolve)));
    await directories.refresh([URL_], 10);
    expect(directories.lookUp(URL_)!.keys.size).toBe(0);
    answer({ keys: [key], maxAgeMs: 60_000 });
    await directories.refresh([URL_], 1000);
    expect(calls).toBe(1);
    expect(directories.lookUp(URL_)!.keys.size).toBe(1);
  });
});

describe('the shipped snapshot', () => {
  const shipped = KeyDirectories.readSnapshot();
  const agentList = JSON.parse(
    fs.readFileSync(new URL('../../../src/analytics/ingest/ai-user-agents/ai-agents.json', import.meta.url), 'utf8'),
  ) as { agents: { name: string }[] };
  // RFC 9421 appendix B.1.4's test key: its private half is published, so no directory may vouch for it
  const RFC_TEST_KEY_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs';

  it("names OpenAI's and Google's directories, each for agents Scribe knows, and vouches for no public test key", () => {
    const names = new Set(agentList.agents.map((a) => a.name));
    expect(shipped.map((d) => d.url).sort()).toEqual([
      'https://agent.bot.goog/.well-known/http-message-signatures-directory',
      'https://chatgpt.com/.well-known/http-message-signatures-directory',
    ]);
    for (const directory of shipped) {
      expect(directory.agents.length).toBeGreaterThan(0);
      for (const agent of directory.agents) expect(names.has(agent)).toBe(true);
      expect(directory.keys.map((k) => k.x)).not.toContain(RFC_TEST_KEY_X);
    }
  });

  it("finds Google's directory from the dictionary form of Signature-Agent its agent sends", () => {
    const view = {
      headers: { signature: 'g=:AAAA:', 'signature-agent': 'g="https://agent.bot.goog"' },
    } as unknown as Parameters<typeof signedDirectory>[0];
    const url = signedDirectory(view);
    expect(url).toBe('https://agent.bot.goog/.well-known/http-message-signatures-directory');
    const directories = new KeyDirectories(shipped, { now: () => 0 });
    expect(directories.lookUp(url!)?.agents).toEqual(['Google-Agent']);
  });
});
