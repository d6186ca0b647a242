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
