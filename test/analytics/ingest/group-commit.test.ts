import { GroupCommit } from '../../../src/analytics/ingest/group-commit.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('group commit', () => {
  it('commits the items added within the window together, and resolves each add only after its commit', async () => {
    const commits: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const group = new GroupCommit<number>({
      maxItems: 100,
      maxDelayMs: 5,
      commit: async (items) => {
        commits.push(items);
        await gate;
      },
    });
    const settled: number[] = [];
    const adds = [1, 2, 3].map((n) => group.add(n).then(() => settled.push(n)));
    await tick(20);
    expect(commits).toEqual([[1, 2, 3]]);
    expect(settled).toEqual([]);
    release();
    await Promise.all(adds);
    expect(settled).toEqual([1, 2, 3]);
  });

  it('holds at most maxItems per commit, runs one commit at a time, and commits what arrived meanwhile next', async () => {
    const commits: number[][] = [];
    let running = 0;
    let overlapped = false;
    const group = new GroupCommit<number>({
      maxItems: 4,
      maxDelayMs: 1,
      commit: async (items) => {
        overlapped ||= running > 0;
        running++;
        commits.push(items);
        await tick(5);
        running--;
      },
    });
    const first = Array.from({ length: 10 }, (_, i) => group.add(i));
    await tick(2);
    const later = [group.add(10), group.add(11)];
    await Promise.all([...first, ...later]);
    expect(commits.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(Math.max(...commits.map((c) => c.length))).toBeLessThanOrEqual(4);
    expect(commits[0]).toEqual([0, 1, 2, 3]);
    expect(overlapped).toBe(false);
  });

  it('keeps at most maxConcurrent commits in flight', async () => {
    let running = 0;
    let most = 0;
    const group = new GroupCommit<number>({
      maxItems: 2,
      maxDelayMs: 1,
      maxConcurrent: 2,
      commit: async () => {
        most = Math.max(most, ++running);
        await tick(5);
        running--;
      },
    });
    await Promise.all(Array.from({ length: 12 }, (_, i) => group.add(i)));
    expect(most).toBe(2);
  });

  it('a failed commit rejects exactly its items; the next commit goes on', async () => {
    let calls = 0;
    const group = new GroupCommit<string>({
      maxItems: 2,
      maxDelayMs: 1,
      commit: async () => {
        if (calls++ === 0) throw new Error('disk full');
      },
    });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((x) => group.add(x)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('disk full'));
  });

  it('flush commits everything added without waiting out the window, then reports idle', async () => {
    const commits: string[][] = [];
    let idle = 0;
    const group = new GroupCommit<string>({
      maxItems: 10,
      maxDelayMs: 60_000,
      commit: async (items) => void commits.push(items),
      onIdle: () => idle++,
    });
    const added = group.add('x');
    await group.flush();
    await added;
    expect(commits).toEqual([['x']]);
    expect(idle).toBe(1);
  });
});
