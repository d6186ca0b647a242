import { waitAtMost } from '../src/clock.js';

describe('waitAtMost', () => {
  it('returns once every promise has settled, a rejected one included', async () => {
    const order: string[] = [];
    const later = (ms: number, name: string, fail = false) =>
      new Promise<void>((resolve, reject) =>
        setTimeout(() => {
          order.push(name);
          if (fail) reject(new Error(name));
          else resolve();
        }, ms),
      );
    await waitAtMost([later(5, 'first'), later(15, 'failed', true), later(10, 'second')], 60_000);
    order.push('returned');
    expect(order).toEqual(['first', 'second', 'failed', 'returned']);
  });

  it('returns when the time is up, with a promise still pending', async () => {
    let settled = false;
    const never = new Promise<void>(() => {}).then(() => {
      settled = true;
    });
    await waitAtMost([never], 10);
    expect(settled).toBe(false);
  });

  it('does not wait with nothing pending or no time given', async () => {
    let settled = false;
    const slow = new Promise<void>((resolve) => setTimeout(resolve, 50)).then(() => {
      settled = true;
    });
    await waitAtMost([], 60_000);
    await waitAtMost([slow], 0);
    expect(settled).toBe(false);
    await slow;
  });
});
