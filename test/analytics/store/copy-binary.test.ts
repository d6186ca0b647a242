import { BinaryCopyRows, literal, parseBinaryCopy } from '../../../src/analytics/store/copy-binary.js';
import { openSql } from '../../../src/analytics/store/sql.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';

/** A binary COPY stream as PostgreSQL writes it: signature, flags, header extension, rows, trailer. */
function stream(rows: (Buffer | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), u32(extension.length), extension];
  for (const row of rows) {
    parts.push(i16(row.length));
    for (const field of row) parts.push(field === null ? i32(-1) : Buffer.concat([i32(field.length), field]));
  }
  parts.push(i16(-1));
  return Buffer.concat(parts);
}
const i16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const i64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};

describe('parseBinaryCopy', () => {
  it('decodes each field by its column type, NULLs as null, past a header extension', () => {
    const data = stream(
      [
        [i32(-7), i64(9_007_199_254_740_991n), Buffer.from('é "x"'), Buffer.from([0, 255, 1])],
        [i32(0), null, Buffer.alloc(0), null],
      ],
      Buffer.from('ext'),
    );
    expect(parseBinaryCopy(data, ['int', 'bigint', 'text', 'bytes'])).toEqual([
      [-7, 9_007_199_254_740_991, 'é "x"', Buffer.from([0, 255, 1])],
      [0, null, '', null],
    ]);
  });

  it('reads the same rows from the stream cut into pieces anywhere, as messages arrive', () => {
    const data = stream(
      [
        [i32(3), Buffer.from('a'.repeat(40))],
        [null, Buffer.alloc(0)],
        [i32(-1), Buffer.from([9, 8, 7])],
      ],
      Buffer.from('extension'),
    );
    const expected = parseBinaryCopy(data, ['int', 'bytes']);
    expect(expected).toHaveLength(3);
    for (const size of [1, 2, 3, 7, 19, 25, 64]) {
      const rows = new BinaryCopyRows(['int', 'bytes']);
      for (let at = 0; at < data.length; at += size) rows.push(data.subarray(at, at + size));
      expect(rows.finish()).toEqual(expected);
    }
  });

  it('answers no rows for an empty result', () => {
    expect(parseBinaryCopy(stream([]), ['int'])).toEqual([]);
  });

  it('refuses what is not a binary COPY stream, a row of another width and a field of the wrong size', () => {
    expect(() => parseBinaryCopy(Buffer.from('id,name\n1,one\n2,two\n'), ['int'])).toThrow('not a binary COPY stream');
    const whole = stream([[i32(1)]]);
    expect(() => parseBinaryCopy(whole.subarray(0, whole.length - 3), ['int'])).toThrow('ended within a row');
    expect(() => parseBinaryCopy(Buffer.concat([whole, i16(1)]), ['int'])).toThrow('data after the end mark');
    expect(() => parseBinaryCopy(stream([[i32(1), i32(2)]]), ['int'])).toThrow('2 fields in a row, 1 expected');
    expect(() => parseBinaryCopy(stream([[i64(1n)]]), ['int'])).toThrow('an int of 8 bytes');
    expect(() => parseBinaryCopy(stream([[i32(1)]]), ['bigint'])).toThrow('a bigint of 4 bytes');
  });
});

describe('literal', () => {
  it('writes parameters as PostgreSQL reads them back', () => {
    expect(literal(null)).toBe('NULL');
    expect(literal(42)).toBe('42');
    expect(literal(-1.5)).toBe('-1.5');
    expect(literal(12345678901234567890n)).toBe('12345678901234567890');
    expect(literal("it's")).toBe("'it''s'");
    expect(literal('back\\slash')).toBe(" E'back\\\\slash'");
    expect(literal(Buffer.from([0, 171]))).toBe("'\\x00ab'::bytea");
  });

  it('refuses a number PostgreSQL cannot read, and a missing parameter', () => {
    expect(() => literal(Number.NaN)).toThrow('not a number');
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow('not a number');
    expect(() => literal(undefined)).toThrow('fewer parameters');
  });
});

describe.each(PROVIDERS)('rows read with column types on %s', (provider) => {
  const database = useTestDatabase(provider);
  const blob = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
  const select =
    'SELECT "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ? ORDER BY "kind", "part"';

  it('answers as rows read without them: integers, bytes (a blob of many messages), quoted text', async () => {
    const sql = openSql(database.target);
    const projectId = `prj_o'brien\\${provider}`;
    try {
      await sql.insertMany({
        table: 'AnalyticsDaySet',
        columns: [
          ['projectId', 'text'],
          ['day', 'int'],
          ['kind', 'int'],
          ['part', 'int'],
          ['pairs', 'bytes'],
        ],
        rows: [
          [projectId, 20_000, 1, 65_536, blob],
          [projectId, 20_000, 2, 0, Buffer.alloc(0)],
          [projectId, 20_001, 1, 0, Buffer.from([1])],
        ],
      });
      const typed = await sql.rows(select, [projectId, 20_000], ['int', 'int', 'bytes']);
      const plain = await sql.rows(select, [projectId, 20_000]);
      expect(typed.map(([kind, part, pairs]) => [Number(kind), Number(part), Buffer.from(pairs as Buffer)])).toEqual([
        [1, 65_536, blob],
        [2, 0, Buffer.alloc(0)],
      ]);
      expect(plain.map(([kind, part, pairs]) => [Number(kind), Number(part), Buffer.from(pairs as Buffer)])).toEqual(
        typed.map(([kind, part, pairs]) => [kind, part, Buffer.from(pairs as Buffer)]),
      );
      // the same inside a snapshot, and the projectId's quote and backslash survive as written
      const inSnapshot = await sql.snapshot((tx) =>
        tx.rows(
          'SELECT "projectId", "day" FROM "AnalyticsDaySet" WHERE "projectId" = ? ORDER BY "day"',
          [projectId],
          ['text', 'int'],
        ),
      );
      expect(inSnapshot).toEqual([
        [projectId, 20_000],
        [projectId, 20_000],
        [projectId, 20_001],
      ]);
    } finally {
      await sql.close();
    }
  });

  it('reports a failing statement and goes on answering on the same connection', async () => {
    const sql = openSql(database.target);
    try {
      // the message, not the error: better-sqlite3's errors are made outside the test's realm, where toThrow misses them
      const failure = await sql.rows('SELECT "kind" FROM "NoSuchTable"', [], ['int']).then(
        (rows) => rows,
        (err: { message: string }) => err.message,
      );
      expect(failure).toMatch(/NoSuchTable/);
      expect(await sql.rows('SELECT 2 + ?', [3], ['int'])).toEqual([[5]]);
    } finally {
      await sql.close();
    }
  });
});
