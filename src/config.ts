import fs from 'node:fs';
import { z } from 'zod';
import { parseDatabaseUrl, type DatabaseTarget } from './db/database-url.js';

/**
 * Every environment variable Scribe reads, parsed and validated once. Other modules receive the parsed
 * `Config` (or a slice of it) and never read `process.env` themselves.
 */
export interface Config {
  port: number;
  /** how long a client may take to send a request, and how long an idle keep-alive connection stays open */
  httpTimeouts: HttpTimeouts;
  database: DatabaseTarget;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Server secret for keyed hashes; when absent one is generated and kept in the database. */
  secret: string | undefined;
  github: {
    appId: number | undefined;
    privateKey: string | undefined;
    webhookSecret: string | undefined;
    host: string | undefined;
    protocol: 'http' | 'https';
    /** the App's slug (`@<slug>` mentions); asked of GitHub when unset */
    appSlug: string | undefined;
  };
  anthropic: {
    apiKey: string | undefined;
    baseURL: string | undefined;
  };
  jobs: JobsConfig;
  /** runs one automation may start per 24 hours; beyond it runs are recorded as skipped */
  automations: { runsPerDay: number; schedulePollMs: number };
  /** docs reviews of source pull requests: the input-token cap of the one model call that judges the findings */
  reviews: { maxInputTokens: number };
  /** how long after a docs pull request merges its pages are live: where an outcome's before and after windows meet */
  outcomes: { deployDelayMs: number; comments: boolean };
  analytics: AnalyticsConfig;
  trackerCommit: TrackerCommitConfig;
  /**
   * outgoing webhooks: plain http targets allowed (SCRIBE_WEBHOOKS_ALLOW_HTTP, for tests and private setups) and the
   * hosts exempt from the refusal of private, loopback and metadata addresses (SCRIBE_WEBHOOKS_ALLOWED_HOSTS)
   */
  outgoingWebhooks: { allowHttp: boolean; allowedHosts: string[] };
  /** what the CLI's job commands use to call a running Scribe through its public API */
  client: {
    url: string;
    apiKey: string | undefined;
  };
}

/**
 * The HTTP server's timeouts: a request's headers must arrive within `headersMs` and the whole request (headers and
 * body) within `requestMs`, else it is answered 408 and its connection closed; a keep-alive connection idle for
 * `keepAliveMs` is closed. An answer may take as long as it needs (event streams stay open).
 */
export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

/** Visitor analytics: identity, client address and the in-memory cache of day sets. */
export interface AnalyticsConfig {
  /** how often the key of visitor hashes changes: never keeps multi-day counts exact, daily is Plausible-style */
  saltRotation: 'never' | 'daily' | 'weekly';
  /** header a trusted reverse proxy puts the client address in (e.g. x-forwarded-for); unset = the socket address */
  trustedProxyHeader: string | undefined;
  /** memory budget of the per-process cache of decoded day sets */
  cacheMb: number;
  /** operators' published AI agent ranges to use instead of the shipped src/analytics/ingest/ai-user-agents/ai-ranges.json */
  aiRangesFile?: string;
  /** refresh, age and reverse DNS of the AI agent range lists; absent: the defaults below (tests) */
  aiRanges?: AiRangesConfig;
  /** where page views and their reports live when not in the primary database (`CLICKHOUSE_URL`); unset = embedded */
  clickhouse?: ClickHouseConfig;
}

/** A ClickHouse server (or cluster) reached through its HTTP interface. */
export interface ClickHouseConfig {
  /** `http(s)://host:port`, without credentials or path */
  url: string;
  username: string;
  password: string;
  database: string;
  /** `CLICKHOUSE_CLUSTER`: tables are created ON CLUSTER, replicated, with Distributed tables over them */
  cluster: string | undefined;
  /** page views the outbox in the primary database may hold while ClickHouse is unreachable; beyond it ingestion answers 503 */
  outboxLimit: number;
}

/** How AI agents are verified (docs/verification.md). */
export interface AiRangesConfig {
  /** `daily`: fetch each operator's list once a day (any replica), `off`: use the shipped or imported copies only */
  refresh: 'daily' | 'off';
  /** a list copy older than this never calls a view spoofed: its agents are unverifiable */
  maxAgeDays: number;
  /** fetch `<base>/<host><path>` instead of each list's own URL (a mirror; the tests' stand-in server) */
  urlOverride: string | undefined;
  /** forward-confirmed reverse DNS for operators that document it */
  reverseDns: boolean;
  /** Web Bot Auth key directories: fetched at run time (`on`), or the shipped and imported copies only */
  keyDirectoryFetch?: boolean;
  /** CIDRs a key directory may resolve to although private (a mirror; the tests' local directory) */
  keyDirectoryAllow?: string[];
  /** fetch each project host's robots.txt hourly (`on`), or only keep imported copies */
  robotsFetch?: boolean;
}

export const AI_RANGES_DEFAULTS: AiRangesConfig = {
  refresh: 'daily',
  maxAgeDays: 30,
  urlOverride: undefined,
  reverseDns: true,
};

/** Group commit of browser tracker events: at most `maxEvents` per transaction, waiting at most `maxDelayMs` to fill. */
export interface TrackerCommitConfig {
  maxEvents: number;
  maxDelayMs: number;
}

/** Agent jobs: worker, lease, rate limit and per-job agent limits. */
export interface JobsConfig {
  /** jobs one process runs at a time */
  concurrency: number;
  /** job creations plus follow-up messages per project per hour */
  ratePerHour: number;
  leaseMs: number;
  heartbeatMs: number;
  /** how often an idle worker looks for work other processes queued */
  pollMs: number;
  /** claims of one run (crashed workers included) before the job fails */
  maxAttempts: number;
  /** models a request may choose; the first is the default */
  models: string[];
  /** base URL of this Scribe, for links back to a job in pull requests */
  publicUrl: string | undefined;
  maxTurns: number;
  maxOutputTokensPerTurn: number;
  maxTotalTokens: number;
  timeoutMs: number;
  maxRepairRounds: number;
  /**
   * Octokit's client-side pacing of GitHub writes (one per second, one notifying write such as a new pull request
   * every three seconds, per installation), as GitHub asks for against secondary rate limits. Off only for hosts
   * without those limits.
   */
  githubThrottle: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

/** The agent's limits for one run when the environment sets none (SCRIBE_MAX_TURNS and friends). */
export const AGENT_LIMIT_DEFAULTS = {
  maxTurns: 40,
  maxOutputTokensPerTurn: 8_192,
  // Every turn resends the whole conversation, so input dominates: 40 turns of up to ~50k tokens.
  maxTotalTokens: 2_000_000,
  timeoutSeconds: 15 * 60,
  maxRepairRounds: 2,
} as const;

// The SDK warns that claude-sonnet-4-5 reaches end-of-life on 2026-11-30; its successor is the default.
export const DEFAULT_MODEL = 'claude-sonnet-4-6';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const schemas = {
  PORT: optionalText
    .refine((v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), 'must be a port number 0..65535')
    .transform((v) => (v === undefined ? 3000 : Number(v))),
  SCRIBE_HTTP_HEADERS_TIMEOUT: seconds(20),
  SCRIBE_HTTP_REQUEST_TIMEOUT: seconds(120),
  SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: seconds(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCRIBE_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  APP_ID: optionalText
    .refine((v) => v === undefined || /^[1-9]\d*$/.test(v), 'must be a positive whole number')
    .transform((v) => (v === undefined ? undefined : Number(v))),
  PRIVATE_KEY: optionalText,
  PRIVATE_KEY_PATH: optionalText,
  WEBHOOK_SECRET: optionalText,
  GHE_HOST: optionalText.refine(
    (v) => v === undefined || /^[A-Za-z0-9.-]+(:\d+)?$/.test(v),
    'must be a host name (and optional :port), without a scheme',
  ),
  GHE_PROTOCOL: z.enum(['http', 'https']).default('https'),
  SCRIBE_APP_SLUG: optionalText.refine(
    (v) => v === undefined || /^[a-z0-9][a-z0-9-]*$/i.test(v),
    'must be a GitHub App slug (letters, digits and dashes)',
  ),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  SCRIBE_MODEL: optionalText,
  SCRIBE_MODELS: optionalText,
  SCRIBE_PUBLIC_URL: optionalText.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  SCRIBE_JOB_CONCURRENCY: count(2, 1),
  SCRIBE_JOB_RATE_LIMIT: count(100, 1),
  AUTOMATION_RUNS_PER_DAY: count(50, 1),
  AUTOMATION_SCHEDULE_POLL_SECONDS: count(30, 1),
  SCRIBE_REVIEW_MAX_INPUT_TOKENS: count(20_000, 1_000),
  SCRIBE_JOB_LEASE_SECONDS: seconds(30),
  SCRIBE_JOB_HEARTBEAT_SECONDS: seconds(2),
  SCRIBE_JOB_POLL_SECONDS: seconds(1),
  SCRIBE_DOCS_DEPLOY_DELAY: z.coerce.number().min(0, 'must be a number of minutes, 0 or more').default(10),
  SCRIBE_OUTCOME_COMMENTS: z.enum(['on', 'off']).default('on'),
  SCRIBE_JOB_MAX_ATTEMPTS: count(3, 1),
  SCRIBE_MAX_TURNS: count(AGENT_LIMIT_DEFAULTS.maxTurns, 1),
  SCRIBE_MAX_OUTPUT_TOKENS: count(AGENT_LIMIT_DEFAULTS.maxOutputTokensPerTurn, 1),
  SCRIBE_MAX_TOKENS: count(AGENT_LIMIT_DEFAULTS.maxTotalTokens, 1),
  SCRIBE_JOB_TIMEOUT: seconds(AGENT_LIMIT_DEFAULTS.timeoutSeconds),
  SCRIBE_MAX_REPAIR_ROUNDS: count(AGENT_LIMIT_DEFAULTS.maxRepairRounds, 0),
  SCRIBE_GITHUB_THROTTLE: z.enum(['true', 'false']).default('true'),
  SCRIBE_VISITOR_SALT_ROTATION: z.enum(['never', 'daily', 'weekly']).default('never'),
  SCRIBE_TRUSTED_PROXY_HEADER: optionalText.refine(
    (v) => v === undefined || /^[A-Za-z0-9-]+$/.test(v),
    'must be a header name',
  ),
  SCRIBE_ANALYTICS_CACHE_MB: count(256, 0),
  SCRIBE_AI_RANGES_FILE: optionalText,
  SCRIBE_AI_RANGES_REFRESH: z.enum(['daily', 'off']).default(AI_RANGES_DEFAULTS.refresh),
  SCRIBE_AI_RANGES_MAX_AGE_DAYS: count(AI_RANGES_DEFAULTS.maxAgeDays, 1),
  SCRIBE_AI_RANGES_URL_OVERRIDE: optionalText.refine(
    (v) => v === undefined || /^https?:\/\//.test(v),
    'must be an http(s) URL',
  ),
  SCRIBE_AI_REVERSE_DNS: z.enum(['on', 'off']).default('on'),
  SCRIBE_KEY_DIRECTORY_FETCH: z.enum(['on', 'off']).default('on'),
  SCRIBE_ROBOTS_FETCH: z.enum(['on', 'off']).default('on'),
  SCRIBE_KEY_DIRECTORY_ALLOW: optionalText.refine(
    (v) => v === undefined || v.split(',').every((c) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(c.trim())),
    'must be comma-separated CIDRs such as 127.0.0.1/32,::1/128',
  ),
  CLICKHOUSE_URL: optionalText.refine(
    (v) => v === undefined || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
    'must be an http(s) URL such as http://default:secret@clickhouse:8123/scribe',
  ),
  CLICKHOUSE_CLUSTER: optionalText.refine(
    (v) => v === undefined || /^[A-Za-z_][A-Za-z0-9_]*$/.test(v),
    'must be a cluster name',
  ),
  SCRIBE_CLICKHOUSE_OUTBOX_LIMIT: count(1_000_000, 1),
  SCRIBE_TRACKER_COMMIT_EVENTS: count(2000, 1),
  SCRIBE_TRACKER_COMMIT_MS: z.coerce.number().min(0, 'must be at least 0').max(1000, 'must be at most 1000').default(5),
  SCRIBE_WEBHOOKS_ALLOW_HTTP: z
    .enum(['true', 'false'])
    .default('false')
    .describe('Outgoing webhooks may target plain http:// URLs (https only when false)'),
  SCRIBE_WEBHOOKS_ALLOWED_HOSTS: optionalText
    .refine(
      (v) => v === undefined || v.split(',').every((h) => /^[A-Za-z0-9.:[\]-]+$/.test(h.trim())),
      'must be host names separated by commas',
    )
    .describe(
      'Comma-separated hosts outgoing webhooks may reach even when they resolve to private, loopback or link-local addresses',
    ),
  SCRIBE_URL: optionalText.refine((v) => v === undefined || /^https?:\/\//.test(v), 'must be an http(s) URL'),
  SCRIBE_API_KEY: optionalText,
};

function count(fallback: number, min: number) {
  return z.coerce.number().int('must be a whole number').min(min, `must be at least ${min}`).default(fallback);
}

function seconds(fallback: number) {
  return z.coerce.number().positive('must be a positive number of seconds').default(fallback);
}

type Env = Record<string, string | undefined>;

function read<K extends keyof typeof schemas>(env: Env, name: K): z.output<(typeof schemas)[K]> {
  const result = schemas[name].safeParse(env[name] === '' ? undefined : env[name]);
  if (!result.success) {
    const issue = result.error.issues[0];
    const problem = issue.code === 'invalid_value' ? `must be one of ${issue.values.join(', ')}` : issue.message;
    throw new ConfigError(name, `${problem} (got ${JSON.stringify(env[name])})`);
  }
  return result.data as z.output<(typeof schemas)[K]>;
}

function readPrivateKey(env: Env): string | undefined {
  const inline = read(env, 'PRIVATE_KEY');
  const file = read(env, 'PRIVATE_KEY_PATH');
  if (inline) return inline.replace(/\\n/g, '\n');
  if (!file) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      'PRIVATE_KEY_PATH',
      `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

export function loadConfig(env: Env = process.env): Config {
  let database: DatabaseTarget;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (err) {
    throw new ConfigError('DATABASE_URL', (err as Error).message);
  }
  const privateKey = readPrivateKey(env);
  const model = read(env, 'SCRIBE_MODEL') ?? DEFAULT_MODEL;
  if (privateKey && !privateKey.includes('PRIVATE KEY-----')) {
    throw new ConfigError(env.PRIVATE_KEY ? 'PRIVATE_KEY' : 'PRIVATE_KEY_PATH', 'is not a PEM private key');
  }
  return {
    port: read(env, 'PORT'),
    httpTimeouts: readHttpTimeouts(env),
    database,
    logLevel: read(env, 'LOG_LEVEL'),
    secret: read(env, 'SCRIBE_SECRET'),
    github: {
      appId: read(env, 'APP_ID'),
      privateKey,
      webhookSecret: read(env, 'WEBHOOK_SECRET'),
      host: read(env, 'GHE_HOST'),
      protocol: read(env, 'GHE_PROTOCOL'),
      appSlug: read(env, 'SCRIBE_APP_SLUG'),
    },
    anthropic: {
      apiKey: read(env, 'ANTHROPIC_API_KEY'),
      baseURL: read(env, 'ANTHROPIC_BASE_URL'),
    },
    jobs: readJobsConfig(env, model),
    automations: {
      runsPerDay: read(env, 'AUTOMATION_RUNS_PER_DAY'),
      schedulePollMs: read(env, 'AUTOMATION_SCHEDULE_POLL_SECONDS') * 1000,
    },
    reviews: { maxInputTokens: read(env, 'SCRIBE_REVIEW_MAX_INPUT_TOKENS') },
    outcomes: {
      deployDelayMs: read(env, 'SCRIBE_DOCS_DEPLOY_DELAY') * 60_000,
      comments: read(env, 'SCRIBE_OUTCOME_COMMENTS') === 'on',
    },
    analytics: {
      saltRotation: read(env, 'SCRIBE_VISITOR_SALT_ROTATION'),
      trustedProxyHeader: read(env, 'SCRIBE_TRUSTED_PROXY_HEADER')?.toLowerCase(),
      cacheMb: read(env, 'SCRIBE_ANALYTICS_CACHE_MB'),
      aiRangesFile: read(env, 'SCRIBE_AI_RANGES_FILE'),
      aiRanges: {
        refresh: read(env, 'SCRIBE_AI_RANGES_REFRESH'),
        maxAgeDays: read(env, 'SCRIBE_AI_RANGES_MAX_AGE_DAYS'),
        urlOverride: read(env, 'SCRIBE_AI_RANGES_URL_OVERRIDE')?.replace(/\/+$/, ''),
        reverseDns: read(env, 'SCRIBE_AI_REVERSE_DNS') === 'on',
        keyDirectoryFetch: read(env, 'SCRIBE_KEY_DIRECTORY_FETCH') === 'on',
        robotsFetch: read(env, 'SCRIBE_ROBOTS_FETCH') === 'on',
        keyDirectoryAllow: read(env, 'SCRIBE_KEY_DIRECTORY_ALLOW')
          ?.split(',')
          .map((c) => c.trim()),
      },
      clickhouse: readClickHouse(env),
    },
    trackerCommit: {
      maxEvents: read(env, 'SCRIBE_TRACKER_COMMIT_EVENTS'),
      maxDelayMs: read(env, 'SCRIBE_TRACKER_COMMIT_MS'),
    },
    outgoingWebhooks: {
      allowHttp: read(env, 'SCRIBE_WEBHOOKS_ALLOW_HTTP') === 'true',
      allowedHosts: (read(env, 'SCRIBE_WEBHOOKS_ALLOWED_HOSTS') ?? '')
        .split(',')
        .map((h) =>
          h
            .trim()
            .replace(/^\[|\]$/g, '')
            .toLowerCase(),
        )
        .filter(Boolean),
    },
    client: {
      url: (read(env, 'SCRIBE_URL') ?? `http://127.0.0.1:${read(env, 'PORT')}`).replace(/\/+$/, ''),
      apiKey: read(env, 'SCRIBE_API_KEY'),
    },
  };
}

function readClickHouse(env: Env): ClickHouseConfig | undefined {
  const raw = read(env, 'CLICKHOUSE_URL');
  const cluster = read(env, 'CLICKHOUSE_CLUSTER');
  if (!raw) {
    if (cluster) throw new ConfigError('CLICKHOUSE_CLUSTER', 'needs CLICKHOUSE_URL');
    return undefined;
  }
  const url = new URL(raw);
  const database = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')) || 'default';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
    throw new ConfigError(
      'CLICKHOUSE_URL',
      `names the database ${JSON.stringify(database)}; use letters, digits and _`,
    );
  }
  return {
    url: url.origin,
    username: decodeURIComponent(url.username) || 'default',
    password: decodeURIComponent(url.password),
    database,
    cluster,
    outboxLimit: read(env, 'SCRIBE_CLICKHOUSE_OUTBOX_LIMIT'),
  };
}

function readHttpTimeouts(env: Env): HttpTimeouts {
  const timeouts = {
    headersMs: read(env, 'SCRIBE_HTTP_HEADERS_TIMEOUT') * 1000,
    requestMs: read(env, 'SCRIBE_HTTP_REQUEST_TIMEOUT') * 1000,
    keepAliveMs: read(env, 'SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT') * 1000,
  };
  // the headers are part of the request: Node refuses a headers timeout longer than the request's
  if (timeouts.headersMs > timeouts.requestMs)
    throw new ConfigError(
      'SCRIBE_HTTP_HEADERS_TIMEOUT',
      `must not be longer than SCRIBE_HTTP_REQUEST_TIMEOUT (${timeouts.requestMs / 1000} s)`,
    );
  return timeouts;
}

function readJobsConfig(env: Env, model: string): JobsConfig {
  const listed = (read(env, 'SCRIBE_MODELS') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    concurrency: read(env, 'SCRIBE_JOB_CONCURRENCY'),
    ratePerHour: read(env, 'SCRIBE_JOB_RATE_LIMIT'),
    leaseMs: read(env, 'SCRIBE_JOB_LEASE_SECONDS') * 1000,
    heartbeatMs: read(env, 'SCRIBE_JOB_HEARTBEAT_SECONDS') * 1000,
    pollMs: read(env, 'SCRIBE_JOB_POLL_SECONDS') * 1000,
    maxAttempts: read(env, 'SCRIBE_JOB_MAX_ATTEMPTS'),
    models: [...new Set([model, ...listed])],
    publicUrl: read(env, 'SCRIBE_PUBLIC_URL')?.replace(/\/+$/, ''),
    maxTurns: read(env, 'SCRIBE_MAX_TURNS'),
    maxOutputTokensPerTurn: read(env, 'SCRIBE_MAX_OUTPUT_TOKENS'),
    maxTotalTokens: read(env, 'SCRIBE_MAX_TOKENS'),
    timeoutMs: read(env, 'SCRIBE_JOB_TIMEOUT') * 1000,
    maxRepairRounds: read(env, 'SCRIBE_MAX_REPAIR_ROUNDS'),
    githubThrottle: read(env, 'SCRIBE_GITHUB_THROTTLE') === 'true',
  };
}

/** Whether the GitHub App's id and private key are set: the one answer to "is the App configured?". */
export function gitHubAppConfigured(
  github: Config['github'],
): github is Config['github'] & { appId: number; privateKey: string } {
  return Boolean(github.appId && github.privateKey);
}

/** What agent jobs still need, as sentences an operator can act on; empty when jobs can run. */
export function missingForAgentJobs(config: Config): string[] {
  const missing: string[] = [];
  if (!gitHubAppConfigured(config.github)) {
    missing.push('set APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) of the GitHub App');
  }
  if (!config.anthropic.apiKey) missing.push('set ANTHROPIC_API_KEY for the model');
  return missing;
}

/** How docs/configuration.md describes a variable; the default shown is the schema's unless `default` says it in words. */
interface VariableDoc {
  example: string;
  meaning: string;
  default?: string;
}

/**
 * Every variable's documentation, beside the schemas that parse it: a variable added to `schemas` without an entry
 * here does not compile. `npm run docs:generate` writes docs/configuration.md from this table and the schemas'
 * defaults; a test fails when that page and this table differ.
 */
const VARIABLE_DOCS: Record<keyof typeof schemas | 'DATABASE_URL', VariableDoc> = {
  PORT: { example: '8080', meaning: 'HTTP port (`0` picks a free one).' },
  SCRIBE_HTTP_HEADERS_TIMEOUT: {
    example: '10',
    meaning:
      "Seconds a client has to send a request's headers; then it is answered 408 (JSON) and its connection closed. At most `SCRIBE_HTTP_REQUEST_TIMEOUT`.",
  },
  SCRIBE_HTTP_REQUEST_TIMEOUT: {
    example: '600',
    meaning:
      'Seconds a client has to send a whole request, headers and body (then 408, connection closed). Raise it for large log imports over slow links. An answer may take longer.',
  },
  SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: {
    example: '65',
    meaning:
      "Seconds an idle keep-alive connection stays open. Behind a load balancer, set it above the balancer's own idle timeout (e.g. `65` for 60).",
  },
  DATABASE_URL: {
    default: '`file:./data/scribe.db`',
    example: 'postgresql://scribe@db:5432/scribe',
    meaning: '`file:<path>` selects SQLite (relative to the working directory), `postgresql://…` PostgreSQL.',
  },
  LOG_LEVEL: { example: 'debug', meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.' },
  SCRIBE_SECRET: {
    default: 'generated',
    example: '64 hex characters',
    meaning:
      'Server secret for keyed hashes (visitor ids). At least 32 characters. When unset, one is generated on first start and stored in the database, so restarts and replicas agree.',
  },
  APP_ID: { example: '123456', meaning: 'GitHub App id.' },
  PRIVATE_KEY: {
    example: '-----BEGIN RSA PRIVATE KEY-----\\n…',
    meaning: 'GitHub App private key (PEM; `\\n` escapes allowed).',
  },
  PRIVATE_KEY_PATH: {
    example: '/run/secrets/scribe.pem',
    meaning: 'File holding the private key, if `PRIVATE_KEY` is unset.',
  },
  WEBHOOK_SECRET: { example: 'a-long-random-string', meaning: 'Secret GitHub signs webhook deliveries with.' },
  GHE_HOST: {
    default: '— (github.com)',
    example: 'github.acme.internal',
    meaning: 'GitHub Enterprise Server host (API at `<protocol>://<host>/api/v3`).',
  },
  GHE_PROTOCOL: { example: 'http', meaning: 'Protocol for `GHE_HOST`.' },
  SCRIBE_APP_SLUG: {
    default: 'asked of GitHub',
    example: 'acme-scribe',
    meaning: "The App's slug, i.e. what people type after `@` to call Scribe in comments. Set it to skip the lookup.",
  },
  ANTHROPIC_API_KEY: { example: 'sk-ant-…', meaning: 'Key for the model.' },
  ANTHROPIC_BASE_URL: {
    default: "Anthropic's",
    example: 'https://llm-gateway.acme.internal',
    meaning: 'Any endpoint speaking the Anthropic Messages API.',
  },
  SCRIBE_MODEL: {
    default: `\`${DEFAULT_MODEL}\``,
    example: 'claude-opus-4-8',
    meaning: 'Default model for agent jobs.',
  },
  SCRIBE_MODELS: {
    example: 'claude-opus-4-8,claude-haiku-4-5',
    meaning:
      'Comma-separated extra models a job request may choose (`SCRIBE_MODEL` is always allowed and the default).',
  },
  SCRIBE_PUBLIC_URL: {
    example: 'https://scribe.acme.com',
    meaning:
      "This Scribe's public address: links back to jobs in pull requests and comments, and the manifest flow's callback.",
  },
  SCRIBE_JOB_CONCURRENCY: { example: '4', meaning: 'Jobs one process runs at a time.' },
  SCRIBE_JOB_RATE_LIMIT: {
    example: '500',
    meaning: 'Job creations plus follow-up messages per project per hour (then 429 with `Retry-After`).',
  },
  AUTOMATION_RUNS_PER_DAY: {
    example: '20',
    meaning:
      'Runs one automation may start per sliding 24 hours; over it a run is recorded as `skipped` (see [Automations](automations.md)).',
  },
  AUTOMATION_SCHEDULE_POLL_SECONDS: {
    example: '60',
    meaning:
      'How often each process looks for due scheduled automations (a slot runs once across processes; one missed while all were down runs once at start).',
  },
  SCRIBE_REVIEW_MAX_INPUT_TOKENS: {
    example: '40000',
    meaning:
      "Input-token cap (at least 1000) of the one model call that judges a source pull request's docs findings (see [Source pull-request review](pull-request-review.md)); the diff is cut to fit.",
  },
  SCRIBE_JOB_LEASE_SECONDS: {
    example: '60',
    meaning: "How long a worker's claim lasts without a heartbeat: the bound on how long a crashed worker's job waits.",
  },
  SCRIBE_JOB_HEARTBEAT_SECONDS: {
    example: '5',
    meaning: 'Lease renewal, and how fast an archive stops a running agent.',
  },
  SCRIBE_DOCS_DEPLOY_DELAY: {
    example: '30',
    meaning:
      'Minutes from a docs pull request merging to its pages being live (your deploy time): an outcome compares the windows before and after that moment.',
  },
  SCRIBE_OUTCOME_COMMENTS: {
    example: 'off',
    meaning:
      '`off`: Scribe posts no outcome comment on its merged docs pull requests (by default one comment when the 7-day window completes, edited at 28 days; see [Outcomes](outcomes.md)). An automation can opt out alone with `outcome: { comment: false }`.',
  },
  SCRIBE_JOB_POLL_SECONDS: {
    example: '5',
    meaning: 'How often an idle worker looks for jobs queued by other processes.',
  },
  SCRIBE_JOB_MAX_ATTEMPTS: {
    example: '5',
    meaning: 'Interrupted attempts of one run (crashes, restarts) before the job fails.',
  },
  SCRIBE_MAX_TURNS: { example: '80', meaning: 'Model turns per run.' },
  SCRIBE_MAX_OUTPUT_TOKENS: {
    example: '16000',
    meaning: 'Output tokens per model turn (above 16,384 the turn is streamed).',
  },
  SCRIBE_MAX_TOKENS: { example: '500000', meaning: 'Input plus output tokens per run.' },
  SCRIBE_JOB_TIMEOUT: { example: '1800', meaning: 'Wall-clock seconds per run.' },
  SCRIBE_MAX_REPAIR_ROUNDS: {
    example: '0',
    meaning: 'Rounds in which the agent may fix problems the edit checks found.',
  },
  SCRIBE_GITHUB_THROTTLE: {
    example: 'false',
    meaning:
      "Octokit's pacing of GitHub writes (1 s between writes, 3 s between new pull requests or comments, per installation), as GitHub asks against secondary rate limits. `false` only for hosts without them.",
  },
  SCRIBE_VISITOR_SALT_ROTATION: {
    example: 'daily',
    meaning:
      'How often the key of human visitor hashes changes: `never` keeps multi-day counts exact; `daily`/`weekly` trade that for Plausible-style privacy.',
  },
  SCRIBE_TRUSTED_PROXY_HEADER: {
    default: '— (socket address)',
    example: 'x-forwarded-for',
    meaning: 'Header your reverse proxy puts the client address in. Set it only behind a proxy that overwrites it.',
  },
  SCRIBE_ANALYTICS_CACHE_MB: {
    example: '1024',
    meaning:
      'Memory for the per-process cache of decoded per-day visitor sets, agent cells, counts of AI misses and searches and the page views outcomes read (`0` turns it off).',
  },
  SCRIBE_AI_RANGES_FILE: {
    default: '— (the shipped `src/analytics/ingest/ai-user-agents/ai-ranges.json`)',
    example: '/etc/scribe/ai-ranges.json',
    meaning:
      "AI agent range lists in the shipped file's format, used instead of it (a source without `retrievedAt` dates from the file's modification time). Stored copies (refreshed or imported) still replace its lists by URL. See [Verification](verification.md).",
  },
  SCRIBE_AI_RANGES_REFRESH: {
    example: 'off',
    meaning:
      "`daily`: any one replica fetches each operator's list once a day (a refused answer is retried after an hour) and keeps the last good copy in the database for all; `off`: only the shipped, file or imported (`scribe ranges import`) copies.",
  },
  SCRIBE_AI_RANGES_MAX_AGE_DAYS: {
    example: '14',
    meaning:
      'A list copy older than this (since it was fetched) verifies nothing and calls nothing spoofed: its agents are `unverifiable`.',
  },
  SCRIBE_AI_RANGES_URL_OVERRIDE: {
    default: "— (each list's own URL)",
    example: 'http://mirror.internal/ranges',
    meaning:
      "Fetch `<base>/<host><path>` instead of each operator's URL (`…/openai.com/gptbot.json`): an internal mirror, or the tests' stand-in server.",
  },
  SCRIBE_AI_REVERSE_DNS: {
    example: 'off',
    meaning:
      'Forward-confirmed reverse DNS for operators that document it (Google, Apple, Common Crawl, Amazon); `off` decides by the lists alone.',
  },
  SCRIBE_WEBHOOKS_ALLOW_HTTP: {
    example: 'true',
    meaning: 'Outgoing webhooks may target plain `http://` URLs; `false` (the default) accepts `https://` only.',
  },
  SCRIBE_WEBHOOKS_ALLOWED_HOSTS: {
    example: 'hooks.internal,127.0.0.1',
    meaning:
      'Comma-separated hosts an outgoing webhook may target although they resolve to private, loopback, link-local or metadata addresses (checked at subscription and at every delivery); unset refuses them all.',
  },
  SCRIBE_KEY_DIRECTORY_FETCH: {
    example: 'off',
    meaning:
      'Web Bot Auth: `on` fetches the key directories (`/.well-known/http-message-signatures-directory`) that signed AI views name, when the shipped or imported snapshot holds no keys for them (200 only, no redirects, 64 KiB and 32 keys at most, kept for their `Cache-Control` lifetime); `off` verifies with the snapshot and imported directories alone.',
  },
  SCRIBE_ROBOTS_FETCH: {
    example: 'off',
    meaning:
      "`on`: one replica fetches each project host's `/robots.txt` at most hourly and keeps every version it sees, for the `ai/robots` report; `off`: only versions imported with `scribe robots import`.",
  },
  SCRIBE_KEY_DIRECTORY_ALLOW: {
    example: '127.0.0.1/32,::1/128',
    meaning:
      'Addresses (comma-separated CIDRs) a key directory or robots.txt fetch may connect to although they are private or loopback; unset refuses every private, loopback, link-local and metadata address.',
  },
  CLICKHOUSE_URL: {
    default: '— (analytics in the primary database)',
    example: 'http://default:secret@clickhouse:8123/scribe',
    meaning:
      'Moves page views and their reports to ClickHouse (HTTP interface, `http` or `https`; user, password and database in the URL, database `default` when absent). Scribe creates and migrates its tables at start-up. See [ClickHouse](clickhouse.md).',
  },
  CLICKHOUSE_CLUSTER: {
    example: 'docs',
    meaning:
      'With `CLICKHOUSE_URL`: create the tables `ON CLUSTER` this cluster, replicated, with `Distributed` tables sharded by project over them.',
  },
  SCRIBE_CLICKHOUSE_OUTBOX_LIMIT: {
    example: '5000000',
    meaning:
      'With `CLICKHOUSE_URL`: page views the outbox in the primary database may hold while ClickHouse is unreachable; beyond it ingestion answers 503 with `Retry-After`.',
  },
  SCRIBE_TRACKER_COMMIT_EVENTS: {
    example: '500',
    meaning:
      'Most tracker events in one commit (one transaction). `1` turns group commit off: each event is looked up and stored in a transaction of its own, as it arrives.',
  },
  SCRIBE_TRACKER_COMMIT_MS: {
    example: '10',
    meaning:
      'Group commit of browser tracker events (`POST /api/event`): how long a commit waits to collect events (0–1000 ms). Each event is answered only after its commit.',
  },
  SCRIBE_URL: {
    default: '`http://127.0.0.1:$PORT`',
    example: 'https://scribe.acme.internal',
    meaning: "Where the CLI's `job` and `automation` commands reach a running Scribe.",
  },
  SCRIBE_API_KEY: {
    example: 'scribe_sk_…',
    meaning: "API key the CLI's `job` and `automation` commands send (they use the public API, like any client).",
  },
};

/** One row of the configuration reference: the variable, its default as Markdown, an example and its meaning. */
export interface ConfigVariableReference {
  name: string;
  default: string;
  example: string;
  meaning: string;
}

/** Every variable Scribe reads, in the order of the schemas, with the default each schema applies when it is unset. */
export function configReference(): ConfigVariableReference[] {
  const names = ['DATABASE_URL', ...Object.keys(schemas)] as (keyof typeof VARIABLE_DOCS)[];
  return names.map((name) => {
    const doc = VARIABLE_DOCS[name];
    const parsed = name === 'DATABASE_URL' ? undefined : schemas[name].safeParse(undefined).data;
    const fallback = parsed === undefined ? '—' : `\`${String(parsed)}\``;
    return { name, default: doc.default ?? fallback, example: doc.example, meaning: doc.meaning };
  });
}
