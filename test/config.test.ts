import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, DEFAULT_MODEL, gitHubAppConfigured, loadConfig, missingForAgentJobs } from '../src/config.js';

const root = path.resolve(import.meta.dirname, '..');

describe('loadConfig', () => {
  it('starts from nothing: port 3000, SQLite under ./data, nothing for agent jobs', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({
      provider: 'sqlite',
      url: `file:${path.resolve('data/scribe.db')}`,
      filePath: path.resolve('data/scribe.db'),
    });
    expect(config.logLevel).toBe('info');
    expect(config.secret).toBeUndefined();
    expect(config.jobs.models).toEqual([DEFAULT_MODEL]);
    expect(config.reviews).toEqual({ maxInputTokens: 20_000 });
    expect(loadConfig({ SCRIBE_REVIEW_MAX_INPUT_TOKENS: '40000' }).reviews).toEqual({ maxInputTokens: 40_000 });
    expect(() => loadConfig({ SCRIBE_REVIEW_MAX_INPUT_TOKENS: '10' })).toThrow(
      /SCRIBE_REVIEW_MAX_INPUT_TOKENS: must be at least 1000/,
    );
    expect(missingForAgentJobs(config)).toEqual([
      'set APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) of the GitHub App',
      'set ANTHROPIC_API_KEY for the model',
    ]);
  });

  it('selects PostgreSQL or another SQLite file from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@db:5432/scribe' }).database).toEqual({
      provider: 'postgresql',
      url: 'postgresql://u@db:5432/scribe',
    });
    expect(loadConfig({ DATABASE_URL: 'file:/var/lib/scribe/x.db' }).database).toMatchObject({
      provider: 'sqlite',
      filePath: '/var/lib/scribe/x.db',
    });
  });

  it('keeps analytics embedded without CLICKHOUSE_URL, and reads the server, database and cluster from it', () => {
    expect(loadConfig({}).analytics.clickhouse).toBeUndefined();
    expect(
      loadConfig({ CLICKHOUSE_URL: 'http://default:s%40cret@clickhouse:8123/scribe' }).analytics.clickhouse,
    ).toEqual({
      url: 'http://clickhouse:8123',
      username: 'default',
      password: 's@cret',
      database: 'scribe',
      cluster: undefined,
      outboxLimit: 1_000_000,
    });
    expect(
      loadConfig({
        CLICKHOUSE_URL: 'https://ch.example.com:8443',
        CLICKHOUSE_CLUSTER: 'docs',
        SCRIBE_CLICKHOUSE_OUTBOX_LIMIT: '5000',
      }).analytics.clickhouse,
    ).toEqual({
      url: 'https://ch.example.com:8443',
      username: 'default',
      password: '',
      database: 'default',
      cluster: 'docs',
      outboxLimit: 5000,
    });
    expect(() => loadConfig({ CLICKHOUSE_CLUSTER: 'docs' })).toThrow('CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL');
    expect(() => loadConfig({ CLICKHOUSE_URL: 'tcp://ch:9000' })).toThrow('CLICKHOUSE_URL: must be an http(s) URL');
    expect(() => loadConfig({ CLICKHOUSE_URL: 'http://ch:8123/a-b' })).toThrow('names the database "a-b"');
  });

  it('reads the GitHub App and model settings', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\\nabc\\n-----END RSA PRIVATE KEY-----';
    const config = loadConfig({
      APP_ID: '42',
      PRIVATE_KEY: pem,
      WEBHOOK_SECRET: 'w',
      GHE_HOST: 'github.acme.test:8443',
      GHE_PROTOCOL: 'http',
      ANTHROPIC_API_KEY: 'k',
      SCRIBE_MODEL: 'claude-x',
    });
    expect(config.github).toEqual({
      appId: 42,
      privateKey: pem.replace(/\\n/g, '\n'),
      webhookSecret: 'w',
      host: 'github.acme.test:8443',
      protocol: 'http',
    });
    expect(config.anthropic).toEqual({ apiKey: 'k', baseURL: undefined });
    expect(config.jobs.models[0]).toBe('claude-x');
    expect(missingForAgentJobs(config)).toEqual([]);
    expect(gitHubAppConfigured(config.github)).toBe(true);
    expect(gitHubAppConfigured({ ...config.github, privateKey: undefined })).toBe(false);
  });

  it('gives the HTTP server sane timeouts, in seconds, the headers within the request', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({ headersMs: 20_000, requestMs: 120_000, keepAliveMs: 5_000 });
    expect(
      loadConfig({
        SCRIBE_HTTP_HEADERS_TIMEOUT: '5',
        SCRIBE_HTTP_REQUEST_TIMEOUT: '600',
        SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: '65',
      }).httpTimeouts,
    ).toEqual({ headersMs: 5_000, requestMs: 600_000, keepAliveMs: 65_000 });
    expect(() => loadConfig({ SCRIBE_HTTP_HEADERS_TIMEOUT: '30', SCRIBE_HTTP_REQUEST_TIMEOUT: '10' })).toThrow(
      'SCRIBE_HTTP_HEADERS_TIMEOUT: must not be longer than SCRIBE_HTTP_REQUEST_TIMEOUT (10 s)',
    );
    expect(() => loadConfig({ SCRIBE_HTTP_REQUEST_TIMEOUT: '0' })).toThrow(
      'SCRIBE_HTTP_REQUEST_TIMEOUT: must be a positive number of seconds (got "0")',
    );
  });

  it('verifies AI agents by default with daily refreshes, 30-day-old lists at most and reverse DNS', () => {
    expect(loadConfig({}).analytics.aiRanges).toEqual({
      refresh: 'daily',
      maxAgeDays: 30,
      urlOverride: undefined,
      reverseDns: true,
      keyDirectoryFetch: true,
      keyDirectoryAllow: undefined,
      robotsFetch: true,
    });
    expect(
      loadConfig({
        SCRIBE_AI_RANGES_REFRESH: 'off',
        SCRIBE_AI_RANGES_MAX_AGE_DAYS: '7',
        SCRIBE_AI_RANGES_URL_OVERRIDE: 'http://mirror.internal:8080/ranges/',
        SCRIBE_AI_REVERSE_DNS: 'off',
        SCRIBE_KEY_DIRECTORY_FETCH: 'off',
        SCRIBE_KEY_DIRECTORY_ALLOW: '127.0.0.1/32, ::1/128',
        SCRIBE_ROBOTS_FETCH: 'off',
      }).analytics.aiRanges,
    ).toEqual({
      refresh: 'off',
      maxAgeDays: 7,
      urlOverride: 'http://mirror.internal:8080/ranges',
      reverseDns: false,
      keyDirectoryFetch: false,
      keyDirectoryAllow: ['127.0.0.1/32', '::1/128'],
      robotsFetch: false,
    });
  });

  it('refuses a key directory allow-list that is not CIDRs', () => {
    expect(() => loadConfig({ SCRIBE_KEY_DIRECTORY_ALLOW: 'localhost' })).toThrow('SCRIBE_KEY_DIRECTORY_ALLOW');
  });

  it.each([
    ['SCRIBE_AI_RANGES_REFRESH', 'hourly', 'SCRIBE_AI_RANGES_REFRESH: must be one of daily, off (got "hourly")'],
    ['SCRIBE_AI_RANGES_MAX_AGE_DAYS', '0', 'SCRIBE_AI_RANGES_MAX_AGE_DAYS: must be at least 1 (got "0")'],
    [
      'SCRIBE_AI_RANGES_URL_OVERRIDE',
      'mirror.internal',
      'SCRIBE_AI_RANGES_URL_OVERRIDE: must be an http(s) URL (got "mirror.internal")',
    ],
    ['SCRIBE_AI_REVERSE_DNS', 'yes', 'SCRIBE_AI_REVERSE_DNS: must be one of on, off (got "yes")'],
    ['SCRIBE_DOCS_DEPLOY_DELAY', '-5', 'SCRIBE_DOCS_DEPLOY_DELAY: must be a number of minutes, 0 or more (got "-5")'],
    ['PORT', 'abc', 'PORT: must be a port number 0..65535 (got "abc")'],
    ['PORT', '70000', 'PORT: must be a port number 0..65535 (got "70000")'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must start with file: (SQLite) or postgresql:// (PostgreSQL)'],
    ['APP_ID', 'twelve', 'APP_ID: must be a positive whole number (got "twelve")'],
    ['GHE_PROTOCOL', 'ftp', 'GHE_PROTOCOL: must be one of http, https (got "ftp")'],
    [
      'GHE_HOST',
      'https://github.acme.test',
      'GHE_HOST: must be a host name (and optional :port), without a scheme (got "https://github.acme.test")',
    ],
    ['SCRIBE_SECRET', 'short', 'SCRIBE_SECRET: must be at least 32 characters (got "short")'],
    ['ANTHROPIC_BASE_URL', 'not a url', 'ANTHROPIC_BASE_URL: must be a URL (got "not a url")'],
    ['PRIVATE_KEY', 'hello', 'PRIVATE_KEY: is not a PEM private key'],
    ['PRIVATE_KEY_PATH', '/nonexistent/key.pem', 'PRIVATE_KEY_PATH: cannot read /nonexistent/key.pem (ENOENT)'],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new ConfigError(name, message.slice(name.length + 2)));
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('a bad variable stops the real process with one line naming it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      'scribe: invalid configuration: PORT: must be a port number 0..65535 (got "eighty")',
    ]);
  });
});

describe('SCRIBE_DOCS_DEPLOY_DELAY', () => {
  it('is in minutes, 10 unless set, and 0 allowed (a site that serves the branch as it merges)', () => {
    expect(loadConfig({}).outcomes.deployDelayMs).toBe(600_000);
    expect(loadConfig({ SCRIBE_DOCS_DEPLOY_DELAY: '30' }).outcomes.deployDelayMs).toBe(1_800_000);
    expect(loadConfig({ SCRIBE_DOCS_DEPLOY_DELAY: '0' }).outcomes.deployDelayMs).toBe(0);
  });
});
