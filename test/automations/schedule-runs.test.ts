import { dueSlots } from '../../src/automations/schedule-runs.js';
import type { LoadedConfig } from '../../src/automations/config-store.js';

const config = (firstSeen: string, cron = '0 6 * * 1', timezone?: string): LoadedConfig => ({
  projectId: 'prj_1',
  sha: null,
  automations: [{ id: 'weekly', on: { kind: 'schedule', cron, timezone }, prompt: 'x', draft: false }],
  problems: [],
  firstSeen: { weekly: firstSeen },
  loadedAt: new Date(firstSeen),
});

describe('dueSlots', () => {
  it('is the latest slot only, however many were missed, and none before the automation first loaded', () => {
    const now = new Date('2026-11-23T07:00:00Z'); // a Monday, after its 06:00 slot
    expect(dueSlots([config('2026-10-01T00:00:00Z')], now)).toEqual([
      { projectId: 'prj_1', automationId: 'weekly', slot: new Date('2026-11-23T06:00:00Z') },
    ]);
    expect(dueSlots([config('2026-11-23T06:30:00Z')], now)).toEqual([]);
    expect(dueSlots([config('2026-11-23T06:00:00Z')], now)).toHaveLength(1);
    expect(
      dueSlots(
        [
          {
            ...config('2026-10-01T00:00:00Z'),
            automations: [
              {
                id: 'weekly',
                on: { kind: 'push', repository: 'a/b', branches: null, paths: null },
                prompt: 'x',
                draft: false,
              },
            ],
          },
        ],
        now,
      ),
    ).toEqual([]);
  });

  it('reads the schedule in its time zone, and a stored schedule without one in UTC', () => {
    const now = new Date('2026-11-23T07:00:00Z');
    // 06:00 on Monday in Tokyo was 21:00 UTC on Sunday
    expect(dueSlots([config('2026-10-01T00:00:00Z', '0 6 * * 1', 'Asia/Tokyo')], now)).toEqual([
      { projectId: 'prj_1', automationId: 'weekly', slot: new Date('2026-11-22T21:00:00Z') },
    ]);
    expect(dueSlots([config('2026-10-01T00:00:00Z', '0 6 * * 1', undefined)], now)[0].slot).toEqual(
      new Date('2026-11-23T06:00:00Z'),
    );
  });
});
