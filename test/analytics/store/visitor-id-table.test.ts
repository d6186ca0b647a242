import { createHash } from 'node:crypto';
import { VisitorIdTable } from '../../../src/analytics/store/visitor-id-table.js';

/** A visitor hash as ingest/visitor-hash.ts makes them: 22 base64url characters. */
const hash = (n: number) => createHash('sha256').update(`visitor ${n}`).digest('base64url').slice(0, 22);

describe('VisitorIdTable', () => {
  it('answers what a Map would across growth, for 50,000 visitors set in random order and looked up again', () => {
    const table = new VisitorIdTable();
    const expected = new Map<string, number>();
    for (let n = 0; n < 50_000; n++) {
      const h = hash((n * 7919) % 50_000);
      const id = n + 1;
      table.set(h, id);
      expected.set(h, id);
    }
    expect(table.size).toBe(expected.size);
    for (const [h, id] of expected) expect(table.get(h)).toBe(id);
    for (let n = 50_000; n < 51_000; n++) expect(table.get(hash(n))).toBeUndefined();
  });

  it('tells apart hashes that differ only in the last character or in the case of one', () => {
    const table = new VisitorIdTable();
    const base = 'AAAAAAAAAAAAAAAAAAAAAA';
    const last = `${base.slice(0, 21)}B`;
    const cased = `a${base.slice(1)}`;
    table.set(base, 1);
    table.set(last, 2);
    table.set(cased, 3);
    expect([table.get(base), table.get(last), table.get(cased)]).toEqual([1, 2, 3]);
    expect(table.get(`${base.slice(0, 20)}BA`)).toBeUndefined();
  });

  it('overwrites the id of a hash set again, counting it once', () => {
    const table = new VisitorIdTable();
    table.set(hash(1), 5);
    table.set(hash(1), 6);
    expect(table.get(hash(1))).toBe(6);
    expect(table.size).toBe(1);
  });

  it('keeps nothing for a key that is not a 22-character base64url hash, nor for an id out of range', () => {
    const table = new VisitorIdTable();
    for (const key of [
      '',
      'short',
      `${hash(1)}x`,
      'AAAAAAAAAAAAAAAAAAAAA+',
      'AAAAAAAAAAAAAAAAAAAAA=',
      'AAAAAAAAAAAAAAAAAAAAAé',
    ])
      table.set(key, 7);
    table.set(hash(2), 0);
    table.set(hash(3), 2 ** 31);
    expect(table.size).toBe(0);
    expect(table.get('short')).toBeUndefined();
    expect(table.get(hash(2))).toBeUndefined();
    expect(table.get(hash(3))).toBeUndefined();
  });
});
