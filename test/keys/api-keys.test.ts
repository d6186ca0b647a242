import {
  authenticateApiKey,
  authorizeApiKey,
  createApiKey,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../src/keys/api-keys.js';
import { addProject } from '../../src/projects/projects.js';
import { Forbidden, NotFound, Unauthenticated } from '../../src/errors.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';

describe.each(PROVIDERS)('API keys on %s', (provider) => {
  const database = useTestDatabase(provider);
  let now = new Date('2026-11-21T10:00:00.000Z');
  const clock = () => now;

  it('creates scribe_sk_ keys of 40 random base62 characters and stores only their SHA-256', async () => {
    const project = await addProject({ db: database.db, clock, repository: 'acme/keys-a', ref: 'main' });
    const a = await createApiKey({ db: database.db, clock, projectId: project.id, scope: 'read' });
    const b = await createApiKey({ db: database.db, clock, projectId: null, scope: 'write' });
    expect(a.key).toMatch(/^scribe_sk_[0-9A-Za-z]{40}$/);
    expect(a.key).not.toBe(b.key);
    const rows = await database.db.apiKey.findMany();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.key);
    expect(stored).not.toContain(a.key.slice(14));
    expect(rows.find((r) => r.id === a.info.id)?.hash).toBe(hashApiKey(a.key));
    expect(a.info).toMatchObject({
      projectId: project.id,
      scope: 'read',
      createdAt: now,
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(b.info.projectId).toBeNull();
  });

  it('refuses a key for an unknown project', async () => {
    await expect(createApiKey({ db: database.db, clock, projectId: 'prj_missing', scope: 'read' })).rejects.toThrow(
      NotFound,
    );
  });

  it('authenticates, records last use, and refuses unknown, malformed, expired and revoked keys', async () => {
    const { key, info } = await createApiKey({
      db: database.db,
      clock,
      projectId: null,
      scope: 'write',
      expiresInDays: 2,
    });
    await expect(authenticateApiKey({ db: database.db, clock, presented: key })).resolves.toMatchObject({
      id: info.id,
    });
    expect((await listApiKeys(database.db)).find((k) => k.id === info.id)?.lastUsedAt).toEqual(now);

    await expect(authenticateApiKey({ db: database.db, clock, presented: undefined })).rejects.toThrow(
      'Missing API key',
    );
    await expect(authenticateApiKey({ db: database.db, clock, presented: 'sk-nope' })).rejects.toThrow(
      'Malformed API key',
    );
    await expect(
      authenticateApiKey({ db: database.db, clock, presented: `scribe_sk_${'a'.repeat(40)}` }),
    ).rejects.toThrow('Unknown API key');

    const before = now;
    now = new Date(before.getTime() + 2 * 86_400_000);
    await expect(authenticateApiKey({ db: database.db, clock, presented: key })).rejects.toThrow('API key has expired');
    now = before;

    await revokeApiKey({ db: database.db, clock, id: info.id });
    await expect(authenticateApiKey({ db: database.db, clock, presented: key })).rejects.toThrow(
      new Unauthenticated('API key has been revoked'),
    );
    expect((await listApiKeys(database.db)).find((k) => k.id === info.id)?.revokedAt).toEqual(now);
    await expect(revokeApiKey({ db: database.db, clock, id: 'key_missing' })).rejects.toThrow(NotFound);
  });

  it('authorizes by project and scope; write implies read', () => {
    const base = { id: 'k', prefix: 'p', createdAt: now, lastUsedAt: null, expiresAt: null, revokedAt: null };
    expect(() => authorizeApiKey({ ...base, projectId: 'p1', scope: 'read' }, 'p1', 'read')).not.toThrow();
    expect(() => authorizeApiKey({ ...base, projectId: 'p1', scope: 'write' }, 'p1', 'read')).not.toThrow();
    expect(() => authorizeApiKey({ ...base, projectId: null, scope: 'write' }, 'any', 'write')).not.toThrow();
    expect(() => authorizeApiKey({ ...base, projectId: 'p1', scope: 'read' }, 'p1', 'write')).toThrow(Forbidden);
    expect(() => authorizeApiKey({ ...base, projectId: 'p1', scope: 'write' }, 'p2', 'read')).toThrow(
      'not valid for this project',
    );
  });
});
