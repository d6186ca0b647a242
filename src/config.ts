import fs from 'node:fs';
import { z } from 'zod';
import { parseDatabaseUrl, type DatabaseTarget } from './db/database-url.js';

/**
 * Every environment variable Scribe reads, parsed and validated once. Other modules receive the parsed
 * `Config` (or a slice of it) and never read `process.env` themselves.
 */
export interface Config {
  port: number;
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
  };
  anthropic: {
    apiKey: string | undefined;
    baseURL: string | undefined;
    model: string;
  };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

export const DEFAULT_MODEL = 'claude-sonnet-4-5';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const schemas = {
  PORT: optionalText
    .refine((v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), 'must be a port number 0..65535')
    .transform((v) => (v === undefined ? 3000 : Number(v))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCRIBE_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  APP_ID: optionalText
    .refine((v) => v === undefined || /^[1-9]\d*$/.test(v), 'must be a positive whole number')
    .transform((v) => (v === undefined ? undefined : Number(v))),
  PRIVATE_KEY: optionalText,
  PRIVATE_KEY_PATH: optionalText,
  WEBHOOK_SECRET: optionalText,
  GHE_HOST: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9.-]+(:\d+)?$/.test(v), 'must be a host name (and optional :port), without a scheme'),
  GHE_PROTOCOL: z.enum(['http', 'https']).default('https'),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  SCRIBE_MODEL: optionalText,
};

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
    throw new ConfigError('PRIVATE_KEY_PATH', `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
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
  if (privateKey && !privateKey.includes('PRIVATE KEY-----')) {
    throw new ConfigError(env.PRIVATE_KEY ? 'PRIVATE_KEY' : 'PRIVATE_KEY_PATH', 'is not a PEM private key');
  }
  return {
    port: read(env, 'PORT'),
    database,
    logLevel: read(env, 'LOG_LEVEL'),
    secret: read(env, 'SCRIBE_SECRET'),
    github: {
      appId: read(env, 'APP_ID'),
      privateKey,
      webhookSecret: read(env, 'WEBHOOK_SECRET'),
      host: read(env, 'GHE_HOST'),
      protocol: read(env, 'GHE_PROTOCOL'),
    },
    anthropic: {
      apiKey: read(env, 'ANTHROPIC_API_KEY'),
      baseURL: read(env, 'ANTHROPIC_BASE_URL'),
      model: read(env, 'SCRIBE_MODEL') ?? DEFAULT_MODEL,
    },
  };
}

/** What agent jobs still need, as sentences an operator can act on; empty when jobs can run. */
export function missingForAgentJobs(config: Config): string[] {
  const missing: string[] = [];
  if (!config.github.appId || !config.github.privateKey) {
    missing.push('set APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) of the GitHub App');
  }
  if (!config.anthropic.apiKey) missing.push('set ANTHROPIC_API_KEY for the model');
  return missing;
}
