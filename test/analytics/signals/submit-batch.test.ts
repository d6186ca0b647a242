import { prepareBatch, type Stamp, tallyOutcomes } from '../../../src/analytics/signals/submit-batch.js';
import { fixedClock } from '../../support/clock.js';

describe('a batch of reader signals', () => {
  const clock = fixedClock('2026-03-10T12:00:00.000Z');
  const now = clock().getTime();
  const hasher = (projectId: string, identity: { type: string; visitorId?: string; ip?: string }) =>
    `${projectId}:${identity.type}:${identity.visitorId ?? identity.ip}`;
  type Item = { name: string; timestamp?: number; ip?: string; visitorId?: string };
  const prepare = (item: Item, stamp: Stamp) =>
    item.name === '' ? { error: 'name: is empty' } : { row: { name: item.name, ...stamp } };

  it('stamps each item with its time, visitor hash and limit keys, and rejects by index: a future time, then the item, then the address', () => {
    const batch = prepareBatch<Item, Stamp & { name: string }>({
      deps: { hasher, clock },
      projectId: 'prj_a',
      items: [
        { name: 'a' },
        { name: 'b', timestamp: now - 1000, visitorId: 'v1' },
        { name: '', timestamp: now + 60 * 60_000, ip: 'nope' },
        { name: '', ip: 'nope' },
        { name: 'c', ip: 'nope' },
        { name: 'd', timestamp: now + 60_000, ip: '198.51.100.1' },
        { name: 'e', ip: '::ffff:198.51.100.2', visitorId: 'v2' },
        { name: 'f', ip: 'nope', visitorId: 'v3' },
      ],
      prepare,
    });
    expect(batch.now).toBe(now);
    const nobody = { addressHash: null, visitorIdHash: null };
    expect(batch.rows).toEqual([
      { name: 'a', ts: now, visitorHash: null, limitKeys: nobody },
      {
        name: 'b',
        ts: now - 1000,
        visitorHash: 'prj_a:given:v1',
        limitKeys: { addressHash: null, visitorIdHash: 'prj_a:given:v1' },
      },
      {
        name: 'd',
        ts: now + 60_000,
        visitorHash: 'prj_a:human:198.51.100.1',
        limitKeys: { addressHash: 'prj_a:address:198.51.100.1', visitorIdHash: null },
      },
      {
        name: 'e',
        ts: now,
        visitorHash: 'prj_a:given:v2',
        limitKeys: { addressHash: 'prj_a:address:198.51.100.2', visitorIdHash: 'prj_a:given:v2' },
      },
    ]);
    expect(batch.indexes).toEqual([0, 1, 5, 6]);
    expect(batch.rejected).toEqual([
      { index: 2, error: 'timestamp: is in the future' },
      { index: 3, error: 'name: is empty' },
      { index: 4, error: 'ip: is not a valid IP address' },
      { index: 7, error: 'ip: is not a valid IP address' },
    ]);
  });

  it('counts stored outcomes by the index each row came from, rate-limited ones rejected in order', () => {
    expect(
      tallyOutcomes({
        outcomes: ['stored', 'rate limited', 'duplicate', 'updated'],
        indexes: [0, 2, 4, 5],
        rejected: [
          { index: 1, error: 'x' },
          { index: 3, error: 'y' },
        ],
      }),
    ).toEqual({
      accepted: 3,
      duplicates: 1,
      rejected: [
        { index: 1, error: 'x' },
        { index: 2, error: 'rate limited: too many submissions from this visitor in the last hour' },
        { index: 3, error: 'y' },
      ],
    });
  });
});
