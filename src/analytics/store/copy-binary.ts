import pg from 'pg';

/** A column's type as read (sql.ts's ColumnType), and a parameter (its Param): sql.ts calls this module. */
type ColumnType = 'text' | 'int' | 'bigint' | 'bytes';
type Param = string | number | bigint | Buffer | null;

/**
 * Rows of a query read from PostgreSQL in its binary format (`COPY (…) TO STDOUT (FORMAT binary)`). node-postgres
 * receives every result column as text and has no binary results, so a `bytea` arrives as hex (twice its size) that
 * is then decoded: for the day sets a report's first call reads (tens of megabytes) that decoding was its largest
 * cost. COPY's data messages reach the client as raw bytes. COPY takes no bound parameters: `params` are written
 * into the statement as literals (`literal`).
 */
export async function copyRows(
  client: pg.Pool | pg.PoolClient,
  text: string,
  params: Param[],
  types: readonly ColumnType[],
): Promise<unknown[][]> {
  let n = 0;
  const statement = `COPY (${text.replace(/\?/g, () => literal(params[n++]))}) TO STDOUT (FORMAT binary)`;
  if (n !== params.length) throw new Error(`copyRows: ${params.length} parameters for ${n} placeholders`);
  const connection = client instanceof pg.Pool ? await client.connect() : client;
  try {
    const data = await new Promise<Buffer>((resolve, reject) => {
      connection.query(new CopyOut(statement, resolve, reject) as unknown as pg.QueryConfig);
    });
    return parseBinaryCopy(data, types);
  } finally {
    if (client instanceof pg.Pool) (connection as pg.PoolClient).release();
  }
}

/** A parameter as an SQL literal. */
export function literal(value: Param | undefined): string {
  if (value === undefined) throw new Error('copyRows: fewer parameters than placeholders');
  if (value === null) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`copyRows: ${value} is not a number PostgreSQL reads`);
    return String(value);
  }
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  return pg.escapeLiteral(value);
}

/**
 * What node-postgres' client calls on a submitted query (its `Submittable`): the statement goes out as a simple
 * query; the data messages are copied as they come into one growing buffer (the protocol parser reuses its own), the
 * whole handed over when the server is ready again; an error as it comes.
 */
class CopyOut {
  private data = Buffer.allocUnsafe(1 << 16);
  private length = 0;

  constructor(
    private readonly text: string,
    private readonly resolve: (data: Buffer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData({ chunk }: { chunk: Buffer }): void {
    if (this.length + chunk.length > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.length + chunk.length, this.data.length * 2));
      this.data.copy(grown, 0, 0, this.length);
      this.data = grown;
    }
    this.length += chunk.copy(this.data, this.length);
  }

  /** the client forgets the query on an error: the server's ready message that follows is not handed to it */
  handleError(error: Error): void {
    this.reject(error);
  }

  handleReadyForQuery(): void {
    this.resolve(this.data.subarray(0, this.length));
  }

  /** the rest of a COPY TO's messages: nothing to do (the client calls no other handler for one) */
  handleCommandComplete(): void {}
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Rows of PostgreSQL's binary COPY format: a signature, flags and a header extension, then per row its field count
 * and each field's length (−1: NULL) and bytes, ended by a count of −1. Fields decode by `types`: `int` a 4-byte and
 * `bigint` an 8-byte big-endian integer (as a number), `text` UTF-8, `bytes` a view of the data (not a copy).
 */
export function parseBinaryCopy(data: Buffer, types: readonly ColumnType[]): unknown[][] {
  if (data.length < 19 || !data.subarray(0, 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
  let at = 15 + 4 + data.readUInt32BE(15);
  const rows: unknown[][] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) return rows;
    if (fields !== types.length) throw new Error(`binary COPY: ${fields} fields in a row, ${types.length} expected`);
    const row: unknown[] = new Array(fields);
    for (let i = 0; i < fields; i++) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        row[i] = null;
        continue;
      }
      row[i] = decodeField(data, at, length, types[i]);
      at += length;
    }
    rows.push(row);
  }
}

function decodeField(data: Buffer, at: number, length: number, type: ColumnType): unknown {
  switch (type) {
    case 'int':
      if (length !== 4) throw new Error(`binary COPY: an int of ${length} bytes`);
      return data.readInt32BE(at);
    case 'bigint':
      if (length !== 8) throw new Error(`binary COPY: a bigint of ${length} bytes`);
      return Number(data.readBigInt64BE(at));
    case 'text':
      return data.toString('utf8', at, at + length);
    case 'bytes':
      return data.subarray(at, at + length);
  }
}
