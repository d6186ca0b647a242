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
    return await new Promise<unknown[][]>((resolve, reject) => {
      connection.query(new CopyOut(statement, types, resolve, reject) as unknown as pg.QueryConfig);
    });
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
 * query; each data message is parsed as it comes (BinaryCopyRows), the rows handed over when the server is ready
 * again; an error as it comes.
 */
class CopyOut {
  private readonly rows: BinaryCopyRows;

  constructor(
    private readonly text: string,
    types: readonly ColumnType[],
    private readonly resolve: (rows: unknown[][]) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.rows = new BinaryCopyRows(types);
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData({ chunk }: { chunk: Buffer }): void {
    this.rows.push(chunk);
  }

  /** the client forgets the query on an error: the server's ready message that follows is not handed to it */
  handleError(error: Error): void {
    this.reject(error);
  }

  handleReadyForQuery(): void {
    try {
      this.resolve(this.rows.finish());
    } catch (err) {
      this.reject(err as Error);
    }
  }

  /** the rest of a COPY TO's messages: nothing to do (the client calls no other handler for one) */
  handleCommandComplete(): void {}
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Rows of PostgreSQL's binary COPY format, read as its pieces arrive: a signature, flags and a header extension, then
 * per row its field count and each field's length (−1: NULL) and bytes, ended by a count of −1. Fields decode by
 * `types`: `int` a 4-byte and `bigint` an 8-byte big-endian integer (as a number), `text` UTF-8, `bytes` a copy of
 * the data (the pieces are the protocol parser's, which reuses its buffer). PostgreSQL sends a row per message; a row
 * split across pieces waits for the rest.
 */
export class BinaryCopyRows {
  private readonly rows: unknown[][] = [];
  private pending: Buffer | undefined;
  private started = false;
  private ended = false;

  constructor(private readonly types: readonly ColumnType[]) {}

  push(piece: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, piece]) : piece;
    this.pending = undefined;
    let at = this.started ? 0 : this.header(data);
    if (at < 0) {
      this.pending = Buffer.from(data);
      return;
    }
    while (!this.ended) {
      const next = this.row(data, at);
      if (next < 0) break;
      at = next;
    }
    if (at === data.length) return;
    if (this.ended) throw new Error('binary COPY: data after the end mark');
    this.pending = Buffer.from(data.subarray(at));
  }

  finish(): unknown[][] {
    if (!this.ended || this.pending) throw new Error('binary COPY: the stream ended within a row');
    return this.rows;
  }

  /** Where the rows start, past the header; −1 while it has not all arrived. */
  private header(data: Buffer): number {
    if (data.length >= 11 && !data.subarray(0, 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
    if (data.length < 19 || data.length < 19 + data.readUInt32BE(15)) return -1;
    this.started = true;
    return 19 + data.readUInt32BE(15);
  }

  /** Reads the row at `at` (or the end mark): where the next starts, or −1 when it has not all arrived. */
  private row(data: Buffer, at: number): number {
    if (at + 2 > data.length) return -1;
    const fields = data.readInt16BE(at);
    if (fields === -1) {
      this.ended = true;
      return at + 2;
    }
    if (fields !== this.types.length)
      throw new Error(`binary COPY: ${fields} fields in a row, ${this.types.length} expected`);
    // complete? each field's length first
    let end = at + 2;
    for (let i = 0; i < fields; i++) {
      if (end + 4 > data.length) return -1;
      end += 4 + Math.max(0, data.readInt32BE(end));
    }
    if (end > data.length) return -1;
    const row: unknown[] = new Array(fields);
    for (let i = 0, field = at + 2; i < fields; i++) {
      const length = data.readInt32BE(field);
      row[i] = length === -1 ? null : decodeField(data, field + 4, length, this.types[i]);
      field += 4 + Math.max(0, length);
    }
    this.rows.push(row);
    return end;
  }
}

/** The rows of a whole binary COPY stream. */
export function parseBinaryCopy(data: Buffer, types: readonly ColumnType[]): unknown[][] {
  const rows = new BinaryCopyRows(types);
  rows.push(data);
  return rows.finish();
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
      return Buffer.from(data.subarray(at, at + length));
  }
}
