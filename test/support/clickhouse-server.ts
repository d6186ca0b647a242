import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A local ClickHouse for the tests: an HTTP server speaking the part of ClickHouse's HTTP interface the official
 * client (`@clickhouse/client`) uses, executing every statement on chDB (the ClickHouse engine in-process). chDB
 * allows one data directory per process, so each stand-in is its own child process with its own directory; that
 * also keeps the engine's work off the test's event loop.
 *
 * With `SCRIBE_TEST_CLICKHOUSE_URL` set the tests run against that real server instead (each stand-in a fresh
 * database on it).
 *
 * Spoken: `GET /ping`, `GET|POST /` with the query in the `query` parameter and/or the body (ClickHouse joins them
 * with a newline, so data after `INSERT … FORMAT` may follow in the body), `FORMAT` clauses (default
 * `TabSeparated`, or `default_format`), `database`, `param_<name>` query parameters, every other parameter as a
 * setting, `query_id`, gzip request bodies and gzip responses (`enable_http_compression=1`), the
 * `X-ClickHouse-Query-Id`/`-Summary`/`-Format`/`-Exception-Code` headers, Basic or `X-ClickHouse-User`/`-Key`
 * authentication, and errors as ClickHouse reports them (status 500, or 403/404 where ClickHouse uses them, body
 * `Code: N. DB::Exception: …`). Insert deduplication tokens (`insert_deduplication_token`) behave as on a
 * single server: chDB runs real MergeTree tables, so a non-replicated table with `non_replicated_deduplication_window`
 * drops a repeated block. Not spoken: sessions (`session_id` is accepted and ignored; every request stands alone),
 * progress headers while a query runs (`send_progress_in_http_headers`), cancelling a running query, the native
 * TCP protocol, clusters and replication (`ON CLUSTER`, `Replicated*` need ZooKeeper/Keeper: those DDLs are tested
 * as generated text only).
 */
export interface ClickHouseStandIn {
  /** `http://user:password@host:port/database` for `CLICKHOUSE_URL` */
  url: string;
  database: string;
  /** Stops the server (kill -9 style when `hard`), keeping its data directory for `restart()` */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port with the same data (as a ClickHouse coming back) */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const SELF = new URL(import.meta.url).pathname;

export async function startClickHouseStandIn(options: { password?: string } = {}): Promise<ClickHouseStandIn> {
  const database = `scribe_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const real = process.env.SCRIBE_TEST_CLICKHOUSE_URL;
  if (real) return onRealServer(real, database);
  const password = options.password ?? 'secret';
  const dir = mkdtempSync(join(tmpdir(), 'scribe-clickhouse-'));
  let child: ChildProcess | undefined;
  let port = 0;
  const start = async () => {
    child = spawn(process.execPath, ['--import', 'tsx', SELF, dir, String(port), password], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child!.once('exit', (code) => reject(new Error(`ClickHouse stand-in exited (${code}) before listening`)));
    });
  };
  const stop = async (hard = false) => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await exited;
  };
  await start();
  return {
    get url() {
      return `http://default:${password}@127.0.0.1:${port}/${database}`;
    },
    database,
    stop,
    restart: start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onRealServer(base: string, database: string): Promise<ClickHouseStandIn> {
  const url = new URL(base);
  url.pathname = `/${database}`;
  const admin = new URL(base);
  const run = async (query: string) => {
    const auth = Buffer.from(
      `${decodeURIComponent(admin.username || 'default')}:${decodeURIComponent(admin.password)}`,
    );
    const res = await fetch(`${admin.origin}/`, {
      method: 'POST',
      body: query,
      headers: { authorization: `Basic ${auth.toString('base64')}` },
    });
    if (!res.ok) throw new Error(await res.text());
  };
  await run(`CREATE DATABASE IF NOT EXISTS ${database}`);
  const unavailable = async () => {
    throw new Error('a real ClickHouse (SCRIBE_TEST_CLICKHOUSE_URL) cannot be stopped by the tests');
  };
  return {
    url: url.toString(),
    database,
    stop: unavailable,
    restart: unavailable,
    close: () => run(`DROP DATABASE IF EXISTS ${database}`),
  };
}

// ---- the child process: HTTP on chDB ----

interface Chdb {
  Session: new (
    path: string,
  ) => {
    queryAsync(q: string, o: { format: string }): Promise<ChdbResult>;
    queryBindAsync(q: string, p: object, o: { format: string }): Promise<ChdbResult>;
    close(): void;
  };
}
interface ChdbResult {
  elapsed: number;
  rowsRead: number;
  bytesRead: number;
  bytes(): Uint8Array;
}

/** URL parameters that are not settings. */
const NOT_SETTINGS = new Set([
  'query',
  'database',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'role',
  'default_format',
  'enable_http_compression',
  'compress',
  'decompress',
  'wait_end_of_query',
  'buffer_size',
]);

function exception(code: number, name: string, message: string): string {
  return `Code: ${code}. DB::Exception: ${message}. (${name}) (version stand-in)\n`;
}

/** Undoes the TSV escaping ClickHouse applies to `param_` values. */
function unescapeParam(value: string): string {
  const map: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '0': '\0' };
  return value.replace(/\\(.)/gs, (_, c: string) => map[c] ?? c);
}

function quote(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function identifier(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

async function serve(dir: string, port: number, password: string) {
  const chdb = createRequire(import.meta.url)('chdb') as Chdb;
  const session = new chdb.Session(dir);
  let queue: Promise<unknown> = Promise.resolve();
  // One session: every request's USE/SET runs right before its statement, so requests take turns.
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    const queryId = url.searchParams.get('query_id') || randomUUID();
    const headers: Record<string, string> = {
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Server-Display-Name': 'clickhouse-stand-in',
      'X-ClickHouse-Timezone': 'UTC',
    };
    const fail = (status: number, code: number, body: string) => {
      res.writeHead(status, { ...headers, 'X-ClickHouse-Exception-Code': String(code), 'content-type': 'text/plain' });
      res.end(body);
    };
    if (url.pathname !== '/') {
      fail(404, 0, `There is no handle /${url.pathname.slice(1)}\n`);
      return;
    }
    const [user, key] = credentials(req, url);
    if (user !== 'default' || key !== password) {
      fail(
        403,
        516,
        exception(
          516,
          'AUTHENTICATION_FAILED',
          `${user}: Authentication failed: password is incorrect, or there is no user with such name`,
        ),
      );
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const inUrl = url.searchParams.get('query');
    const sql = [inUrl, body.length ? body.toString('utf8') : null].filter((s) => s !== null).join('\n');
    if (!sql.trim()) {
      fail(400, 62, exception(62, 'SYNTAX_ERROR', 'Empty query'));
      return;
    }
    const database = url.searchParams.get('database') || 'default';
    const params: Record<string, string> = {};
    const settings: [string, string][] = [];
    for (const [name, value] of url.searchParams) {
      if (name.startsWith('param_')) params[name.slice(6)] = unescapeParam(value);
      else if (!NOT_SETTINGS.has(name)) settings.push([name, value]);
    }
    const statementText = inUrl ?? sql;
    const format = [...statementText.matchAll(/\bFORMAT\s+(\w+)/gi)].at(-1)?.[1];
    const defaultFormat = url.searchParams.get('default_format') || 'TabSeparated';
    const prefix = [
      `USE ${identifier(database)}`,
      ...settings.map(([name, value]) => `SET ${identifier(name)} = ${quote(value)}`),
    ].join('; ');
    const reset = settings.map(([name]) => `SET ${identifier(name)} = DEFAULT`).join('; ');
    try {
      const result = await serially(async () => {
        try {
          const statement = `${prefix}; ${sql}`;
          return Object.keys(params).length
            ? await session.queryBindAsync(statement, params, { format: defaultFormat })
            : await session.queryAsync(statement, { format: defaultFormat });
        } finally {
          if (reset) await session.queryAsync(reset, { format: 'TabSeparated' }).catch(() => undefined);
        }
      });
      let out = Buffer.from(result.bytes());
      headers['X-ClickHouse-Format'] = format ?? defaultFormat;
      headers['X-ClickHouse-Summary'] = JSON.stringify({
        read_rows: String(result.rowsRead),
        read_bytes: String(result.bytesRead),
        written_rows: '0',
        written_bytes: '0',
        total_rows_to_read: String(result.rowsRead),
        result_rows: '0',
        result_bytes: String(out.length),
        elapsed_ns: String(Math.round(result.elapsed * 1e9)),
      });
      headers['content-type'] = /JSON/i.test(format ?? '')
        ? 'application/json; charset=UTF-8'
        : 'text/tab-separated-values; charset=UTF-8';
      if (
        url.searchParams.get('enable_http_compression') === '1' &&
        /gzip/.test(req.headers['accept-encoding'] ?? '')
      ) {
        out = gzipSync(out);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(200, headers).end(out);
    } catch (err) {
      const message = String((err as Error).message ?? err).replace(/^Query failed:\s*/, '');
      const code = Number(/Code: (\d+)/.exec(message)?.[1] ?? 1001);
      fail(500, code, message.endsWith('\n') ? message : `${message}\n`);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500).end(exception(1001, 'STD_EXCEPTION', String(err)));
    });
  });
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    serially(async () => session.close()).finally(() => process.exit(0));
  });
}

function credentials(req: IncomingMessage, url: URL): [string, string] {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString();
    const colon = decoded.indexOf(':');
    return [decoded.slice(0, colon), decoded.slice(colon + 1)];
  }
  const user = (req.headers['x-clickhouse-user'] as string) ?? url.searchParams.get('user') ?? 'default';
  return [user, (req.headers['x-clickhouse-key'] as string) ?? url.searchParams.get('password') ?? ''];
}

if (process.argv[1] === SELF) {
  const [dir, port, password] = process.argv.slice(2);
  void serve(dir!, Number(port), password!);
}
