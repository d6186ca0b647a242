import { createClient, ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseConfig } from '../../config.js';

/**
 * The official client over ClickHouse's HTTP interface. It stays on the `default` database: Scribe names its tables
 * with their database, so the same client can create that database first.
 */
export function openClickHouse(config: ClickHouseConfig): ClickHouseClient {
  return createClient({
    url: config.url,
    username: config.username,
    password: config.password,
    request_timeout: 60_000,
    compression: { request: true, response: true },
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** A query's rows as objects, its parameters bound by name (`{name:Type}` in the query). */
export async function queryRows<T>(
  client: ClickHouseClient,
  query: string,
  query_params?: Record<string, unknown>,
): Promise<T[]> {
  const result = await client.query({ query, query_params, format: 'JSONEachRow' });
  return (await result.json()) as T[];
}
