import { rememberedAnswers } from '../../src/problems/remembered-answers.js';

describe('remembered answers', () => {
  it('answers again under the same stamp, derives afresh under another, and keeps at most its size', async () => {
    const remembered = rememberedAnswers(2);
    let derived = 0;
    const derive = async () => ++derived;
    expect(await remembered('a', 's1', derive)).toBe(1);
    expect(await remembered('a', 's1', derive)).toBe(1);
    expect(await remembered('a', 's2', derive)).toBe(2);
    expect(await remembered('b', 's2', derive)).toBe(3);
    // 'a' used last: 'b' is the one to go when 'c' comes
    expect(await remembered('a', 's2', derive)).toBe(2);
    expect(await remembered('c', 's2', derive)).toBe(4);
    expect(await remembered('a', 's2', derive)).toBe(2);
    expect(await remembered('b', 's2', derive)).toBe(5);
  });

  it('does not keep a failed derivation: the next read derives again', async () => {
    const remembered = rememberedAnswers(4);
    await expect(remembered('a', 's', () => Promise.reject(new Error('database gone')))).rejects.toThrow(
      'database gone',
    );
    expect(await remembered('a', 's', async () => 'answer')).toBe('answer');
  });

  it('shares one derivation between readers asking at once', async () => {
    const remembered = rememberedAnswers(4);
    let derived = 0;
    const derive = async () => {
      derived++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return derived;
    };
    expect(await Promise.all([remembered('a', 's', derive), remembered('a', 's', derive)])).toEqual([1, 1]);
    expect(derived).toBe(1);
  });
});
