import { createHmac } from 'node:crypto';
import { createVisitorHasher, HashThread } from '../../../src/analytics/ingest/visitor-hash.js';

const SECRET = 'a-test-secret-that-is-long-enough-000';
const DAY = 86_400_000;
const MONDAY = Date.UTC(2026, 10, 16, 12); // Monday 16 November 2026
const human = { type: 'human' as const, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 Firefox/133.0' };

describe('visitor hashes', () => {
  it('are stable without rotation, and never contain the address', () => {
    const hash = createVisitorHasher({ secret: SECRET, rotation: 'never' });
    const a = hash('p1', human, MONDAY);
    expect(a).toBe(hash('p1', human, MONDAY + 30 * DAY));
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain('203');
  });

  it('are HMAC-SHA256 of the project and identity, keyed by the secret or its period key: stored ones stay valid', () => {
    const hmac = (key: string | Buffer, text: string) =>
      createHmac('sha256', key).update(text).digest('base64url').slice(0, 22);
    expect(createVisitorHasher({ secret: SECRET, rotation: 'never' })('p1', human, MONDAY)).toBe(
      hmac(SECRET, `p1\0h\0${human.ip}\0${human.userAgent}`),
    );
    const day = Math.floor(MONDAY / DAY);
    const dayKey = createHmac('sha256', SECRET).update(`visitor-key:daily:${day}`).digest();
    expect(
      createVisitorHasher({ secret: SECRET, rotation: 'daily' })('p1', { type: 'given', visitorId: 'u1' }, MONDAY),
    ).toBe(hmac(dayKey, 'p1\0v\0u1'));
  });

  it('differ by project, secret, user agent, agent name and identity type', () => {
    const hash = createVisitorHasher({ secret: SECRET, rotation: 'never' });
    const base = hash('p1', human, MONDAY);
    expect(hash('p2', human, MONDAY)).not.toBe(base);
    expect(createVisitorHasher({ secret: `${SECRET}x`, rotation: 'never' })('p1', human, MONDAY)).not.toBe(base);
    expect(hash('p1', { ...human, userAgent: 'Mozilla/5.0 Safari' }, MONDAY)).not.toBe(base);
    const gpt = hash('p1', { type: 'ai', ip: human.ip, agent: 'GPTBot' }, MONDAY);
    expect(gpt).not.toBe(hash('p1', { type: 'ai', ip: human.ip, agent: 'ClaudeBot' }, MONDAY));
    expect(hash('p1', { type: 'given', visitorId: 'u1' }, MONDAY)).toBe(
      hash('p1', { type: 'given', visitorId: 'u1' }, MONDAY + DAY),
    );
  });

  it('of an address alone are one per address whatever the user agent, and no visitor of that address', () => {
    const hash = createVisitorHasher({ secret: SECRET, rotation: 'never' });
    const address = hash('p1', { type: 'address', ip: human.ip }, MONDAY);
    expect(address).not.toContain('203');
    expect(address).not.toBe(hash('p1', { type: 'address', ip: '203.0.113.8' }, MONDAY));
    for (const visitor of [human, { ...human, userAgent: '' }, { type: 'ai' as const, ip: human.ip, agent: '' }])
      expect(hash('p1', visitor, MONDAY)).not.toBe(address);
    expect(hash('p1', { type: 'given', visitorId: human.ip }, MONDAY)).not.toBe(address);
  });

  it('rotate daily or weekly (weeks start on Monday, UTC)', () => {
    const daily = createVisitorHasher({ secret: SECRET, rotation: 'daily' });
    expect(daily('p1', human, MONDAY)).toBe(daily('p1', human, MONDAY + 11 * 3_600_000));
    expect(daily('p1', human, MONDAY)).not.toBe(daily('p1', human, MONDAY + DAY));
    const weekly = createVisitorHasher({ secret: SECRET, rotation: 'weekly' });
    const monday0 = Date.UTC(2026, 10, 16);
    expect(weekly('p1', human, monday0)).toBe(weekly('p1', human, monday0 + 7 * DAY - 1));
    expect(weekly('p1', human, monday0)).not.toBe(weekly('p1', human, monday0 - 1));
    expect(weekly('p1', human, monday0)).not.toBe(weekly('p1', human, monday0 + 7 * DAY));
  });

  it('of a large batch are made on a thread, equal to those made in place, in order, whatever key each has', async () => {
    const hash = createVisitorHasher({ secret: SECRET, rotation: 'daily' });
    const views = Array.from({ length: 1000 }, (_, i) => ({
      identity: { ...human, ip: `203.0.113.${i % 250}` },
      // three days: three keys in one batch
      ts: MONDAY + (i % 3) * DAY,
    }));
    const thread = new HashThread();
    try {
      const inputs = views.map((v) => hash.input('p1', v.identity, v.ts));
      const [large, small] = await Promise.all([thread.hashAll(inputs), thread.hashAll(inputs.slice(0, 10))]);
      expect(large).toEqual(views.map((v) => hash('p1', v.identity, v.ts)));
      expect(small).toEqual(large.slice(0, 10));
      expect(new Set(large).size).toBe(750);
    } finally {
      await thread.close();
    }
    // a closed thread's next batch starts another
    expect(await thread.hashAll([hash.input('p1', human, MONDAY)])).toEqual([hash('p1', human, MONDAY)]);
    const again = Array.from({ length: 300 }, () => hash.input('p1', human, MONDAY));
    expect(await thread.hashAll(again)).toEqual(again.map(() => hash('p1', human, MONDAY)));
    await thread.close();
  });

  it('of a batch on a thread that ends first are refused, not left waiting', async () => {
    const hash = createVisitorHasher({ secret: SECRET, rotation: 'never' });
    const thread = new HashThread();
    const batch = thread.hashAll(Array.from({ length: 5000 }, () => hash.input('p1', human, MONDAY)));
    await thread.close();
    await expect(batch).rejects.toThrow(/thread ended/);
  });
});
