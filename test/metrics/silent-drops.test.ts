import { Writable } from 'node:stream';
import { droppedSubmissions } from '../../src/metrics/metrics.js';
import { SilentDrops } from '../../src/metrics/silent-drops.js';
import { createLogger } from '../../src/logger.js';

/** a debug logger whose lines are kept, parsed */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger('debug', destination), lines };
}

const counted = async (reason: string, submission: string) =>
  (await droppedSubmissions.get()).values.find((v) => v.labels.reason === reason && v.labels.submission === submission)
    ?.value ?? 0;

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SilentDrops', () => {
  it('counts every drop by reason and submission, and logs at debug once a minute per project and reason', async () => {
    let now = Date.parse('2026-11-23T12:00:00Z');
    const { logger, lines } = capturedLogger();
    const drops = new SilentDrops({ clock: () => new Date(now), logger });
    const before = await counted('unknown_project', 'page_view');
    const beforeBot = await counted('bot', 'feedback');

    drops.record({ projectId: 'prj_x', reason: 'unknown_project', submission: 'page_view', count: 3 });
    drops.record({ projectId: 'prj_x', reason: 'unknown_project', submission: 'page_view' });
    drops.record({ projectId: 'prj_y', reason: 'unknown_project', submission: 'page_view' });
    drops.record({ projectId: 'prj_x', reason: 'bot', submission: 'feedback' });
    now += 59_000;
    drops.record({ projectId: 'prj_x', reason: 'unknown_project', submission: 'page_view' });
    now += 2_000; // past a minute since prj_x's first log for that reason
    drops.record({ projectId: 'prj_x', reason: 'unknown_project', submission: 'page_view' });
    await settle();

    expect((await counted('unknown_project', 'page_view')) - before).toBe(7);
    expect((await counted('bot', 'feedback')) - beforeBot).toBe(1);
    expect(lines.map((l) => [l.level, l.projectId, l.reason, l.count])).toEqual([
      [20, 'prj_x', 'unknown_project', 3],
      [20, 'prj_y', 'unknown_project', 1],
      [20, 'prj_x', 'bot', 1],
      [20, 'prj_x', 'unknown_project', 1],
    ]);
  });

  it('logs nothing above debug', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const drops = new SilentDrops({ clock: () => new Date(), logger: createLogger('info', destination) });
    drops.record({ projectId: 'prj_x', reason: 'host_not_listed', submission: 'search' });
    await settle();
    expect(lines).toEqual([]);
  });
});
