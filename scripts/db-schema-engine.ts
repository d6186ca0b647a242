import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { prismaDir } from '../src/db/migrate.js';

/**
 * Prisma's own schema engine compiled to WebAssembly, talking to the database through a driver adapter: a development
 * tool that writes new migrations (npm run db:migration) and tells whether a migrated database matches the schema.
 * The native engine the `prisma` CLI downloads is not needed. The service never loads it: it applies migrations
 * with src/db/migrate.ts.
 */
export interface SchemaEngine {
  /** SQL that turns `from` into the schema files (`from` is an empty database or the live one). */
  diff(params: { from: 'empty' | 'database'; schemaFiles: SchemaFile[] }): Promise<string>;
  close(): Promise<void>;
}

export interface SchemaFile {
  path: string;
  content: string;
}

const require = createRequire(import.meta.url);
const NO_FILTER = { externalTables: [], externalEnums: [] };

// @types/node does not declare the WebAssembly global; this is the slice used here.
type WasmExports = Record<string, unknown>;
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: WasmExports } }> };
};

type WasmEngine = {
  diff(p: unknown): Promise<{ exitCode: number; stdout?: string | null }>;
  free(): void;
};
type WasmBindings = {
  __wbg_set_wasm(exports: WasmExports): void;
  SchemaEngine: { new: (opts: unknown, log: (line: string) => void, adapter: object) => Promise<WasmEngine> };
};

let bindings: Promise<WasmBindings> | undefined;

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * Postgres catalog queries the engine runs while introspecting return columns of the internal one-byte
 * `"char"` type, which @prisma/adapter-pg has no mapping for; pg already decodes them as strings, so they
 * are announced as text. Only the schema engine's connections use this client.
 */
class CharAsTextClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query has a dozen overloads; this forwards them all unchanged
  override query(...args: any[]): any {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err: Error | null, res: pg.QueryResult) => callback(err, err ? res : announceCharAsText(res));
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    return result instanceof Promise ? result.then(announceCharAsText) : result;
  }
}

function announceCharAsText(res: pg.QueryResult): pg.QueryResult {
  for (const field of res?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  return res;
}

// The package's entry imports the .wasm file as an ES module, which Node 20 cannot do without a flag,
// so the bindings are instantiated by hand the way wasm-bindgen's own loader would.
async function loadBindings(): Promise<WasmBindings> {
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const bg = (await import(pathToFileURL(path.join(dir, 'schema_engine_bg.js')).href)) as WasmBindings;
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm')), {
    './schema_engine_bg.js': bg,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  return bg;
}

export function readSchemaFile(file: string): SchemaFile {
  return { path: path.basename(file), content: fs.readFileSync(file, 'utf8') };
}

export async function openSchemaEngine(target: DatabaseTarget, schemaFiles: SchemaFile[]): Promise<SchemaEngine> {
  bindings ??= loadBindings();
  const bg = await bindings;
  const adapter =
    target.provider === 'sqlite'
      ? // A running server's writers (analytics folds, workers) may hold SQLite's write lock for a while; a migration
        // diffed beside them waits for it rather than failing after 5 s.
        new PrismaBetterSqlite3({ url: target.url, timeout: 60_000 })
      : new PrismaPg(new pg.Pool({ connectionString: target.url, max: 2, Client: CharAsTextClient }), {
          disposeExternalPool: true,
        });
  // engine.free() does not close the connections the engine opened, so they are tracked and disposed here
  // (an open SQLite handle would keep the file locked; an open pg pool would keep the process alive).
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    connect: async () => track(await adapter.connect()),
    connectToShadowDb: async () => track(await adapter.connectToShadowDb()),
  };
  function track<T extends { dispose(): Promise<void> }>(connection: T): T {
    opened.push(connection);
    return connection;
  }
  const engine = await bg.SchemaEngine.new(
    { datamodels: schemaFiles.map((f) => [f.path, f.content]) },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(tracked as typeof adapter),
  );
  return {
    async diff({ from, schemaFiles: files }) {
      const result = await engine.diff({
        // `schemaDatasource` means the live database behind the driver adapter.
        from: from === 'empty' ? { tag: 'empty' } : { tag: 'schemaDatasource', files, configDir: process.cwd() },
        to: { tag: 'schemaDatamodel', files },
        script: true,
        exitCode: null,
        filters: NO_FILTER,
      });
      return result.stdout ?? '';
    },
    async close() {
      engine.free();
      await Promise.all(opened.splice(0).map((c) => c.dispose().catch(() => undefined)));
    },
  };
}

/** SQL that would bring the live database to the schema; empty when there is no drift. */
export async function schemaDrift(target: DatabaseTarget): Promise<string> {
  const schema = readSchemaFile(path.join(prismaDir(target), 'schema.prisma'));
  const engine = await openSchemaEngine(target, [schema]);
  try {
    const sql = await engine.diff({ from: 'database', schemaFiles: [schema] });
    return isEmptyMigration(sql) ? '' : sql;
  } finally {
    await engine.close();
  }
}

/** The engine answers "-- This is an empty migration." (or nothing) when two schemas agree. */
export function isEmptyMigration(sql: string): boolean {
  return /^\s*(-- This is an empty migration\.?)?\s*$/.test(sql);
}
