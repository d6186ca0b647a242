import { judge, retryAfterMs, retryDelayMs } from '../../src/notifications/retry-schedule.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const answer = (status: number, retryAfter: string | null = null) => ({ status, body: '', durationMs: 5, retryAfter });

describe('the retry schedule', () => {
  it('waits 5 s × 4^(n-1), capped at 5 hours, within ±20 % jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((n) => retryDelayMs(n, () => 0.5))).toEqual([
      5_000, 20_000, 80_000, 320_000, 1_280_000, 5_120_000, 18_000_000, 18_000_000,
    ]);
    expect(retryDelayMs(1, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, () => 1)).toBe(6_000);
  });

  it('ends on 2xx, retries timeouts, connection errors, 408, 429 and 5xx, and fails any other answer', () => {
    expect(judge(answer(204), now)).toEqual({ ends: 'delivered' });
    expect(judge({ error: 'timed out after 10 s', durationMs: 10_000 }, now)).toEqual({
      retryInMs: null,
      why: 'timed out after 10 s',
    });
    expect(judge(answer(408), now)).toMatchObject({ retryInMs: null });
    expect(judge(answer(503), now)).toMatchObject({ retryInMs: null });
    expect(judge(answer(429, '30'), now)).toEqual({ retryInMs: 30_000, why: 'answered 429' });
    expect(judge(answer(404), now)).toEqual({ ends: 'failed', why: 'answered 404' });
    expect(judge(answer(302), now)).toEqual({ ends: 'failed', why: 'answered 302 (redirects are not followed)' });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
