import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomBase62, randomId } from '../ids.js';
import { Forbidden, Invalid, NotFound, Unauthenticated } from '../errors.js';
import { DAY_MS } from '../calendar.js';

const KEY_PREFIX = 'scribe_sk_';
const SECRET_LENGTH = 40;
const KEY_PATTERN = /^scribe_sk_[0-9A-Za-z]{32,}$/;

export type Scope = 'read' | 'write';

export interface ApiKeyInfo {
  id: string;
  projectId: string | null;
  scope: Scope;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isScope(value: string): value is Scope {
  return value === 'read' || value === 'write';
}

/** Creates a key and returns it in full exactly once; only its SHA-256 hash is stored. */
export async function createApiKey(params: {
  db: Db;
  clock: Clock;
  projectId: string | null;
  scope: Scope;
  expiresInDays?: number;
}): Promise<{ key: string; info: ApiKeyInfo }> {
  const { db, clock, projectId, scope, expiresInDays } = params;
  if (expiresInDays !== undefined && (!Number.isFinite(expiresInDays) || expiresInDays <= 0)) {
    throw new Invalid('expiry must be a positive number of days');
  }
  if (projectId !== null && !(await db.project.findUnique({ where: { id: projectId } }))) {
    throw new NotFound(`Project ${projectId} not found`);
  }
  const key = `${KEY_PREFIX}${randomBase62(SECRET_LENGTH)}`;
  const now = clock();
  const row = await db.apiKey.create({
    data: {
      id: randomId('key'),
      projectId,
      scope,
      hash: hashApiKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      createdAt: now,
      expiresAt: expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * DAY_MS),
    },
  });
  return { key, info: toInfo(row) };
}

export async function listApiKeys(db: Db): Promise<ApiKeyInfo[]> {
  const rows = await db.apiKey.findMany({ orderBy: { createdAt: 'asc' } });
  return rows.map(toInfo);
}

export async function revokeApiKey(params: { db: Db; clock: Clock; id: string }): Promise<ApiKeyInfo> {
  const { db, clock, id } = params;
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) throw new NotFound(`API key ${id} not found`);
  if (row.revokedAt) return toInfo(row);
  return toInfo(await db.apiKey.update({ where: { id }, data: { revokedAt: clock() } }));
}

/**
 * Resolves a presented bearer key. Every failure is the same 401 sentence family so a caller cannot tell
 * a wrong key from a revoked one by timing: the lookup is by hash and the hash is compared in constant time.
 */
export async function authenticateApiKey(params: {
  db: Db;
  clock: Clock;
  presented: string | undefined;
}): Promise<ApiKeyInfo> {
  const { db, clock, presented } = params;
  if (!presented) throw new Unauthenticated('Missing API key: send Authorization: Bearer scribe_sk_…');
  if (!KEY_PATTERN.test(presented)) throw new Unauthenticated('Malformed API key');
  const hash = hashApiKey(presented);
  const row = await db.apiKey.findUnique({ where: { hash } });
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) {
    throw new Unauthenticated('Unknown API key');
  }
  const now = clock();
  if (row.revokedAt) throw new Unauthenticated('API key has been revoked');
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) throw new Unauthenticated('API key has expired');
  // Last-used is informational; a minute's resolution keeps hot keys from writing on every request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  }
  return toInfo(row);
}

/** 403 unless the key may act on this project with this scope (`write` implies `read`). */
export function authorizeApiKey(key: ApiKeyInfo, projectId: string, needed: Scope): void {
  if (key.projectId !== null && key.projectId !== projectId)
    throw new Forbidden('This API key is not valid for this project');
  if (needed === 'write' && key.scope !== 'write')
    throw new Forbidden('This API key has read scope; this request needs a write key');
}

function toInfo(row: {
  id: string;
  projectId: string | null;
  scope: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyInfo {
  return {
    id: row.id,
    projectId: row.projectId,
    scope: isScope(row.scope) ? row.scope : 'read',
    prefix: row.prefix,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}
