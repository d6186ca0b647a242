import type { Command } from './command.js';
import { UsageError } from './command.js';
import { createApiKey, isScope, listApiKeys, revokeApiKey } from '../keys/api-keys.js';

const iso = (d: Date | null) => (d ? d.toISOString() : '-');

export const keyCommands: Record<string, Command> = {
  'key create': {
    usage: 'key create --project <id>|--all --scope read|write [--expires <days>]',
    summary:
      'Creates an API key for one project (or all) and prints it once, as the last line. A read key may GET; a write key may do everything.',
    options: {
      project: { type: 'string' },
      all: { type: 'boolean' },
      scope: { type: 'string' },
      expires: { type: 'string' },
    },
    async run({ values, db, clock, io }) {
      const forProject = typeof values.project === 'string' ? values.project : undefined;
      if (!forProject === !values.all) throw new UsageError('give exactly one of --project <id> or --all');
      if (typeof values.scope !== 'string' || !isScope(values.scope))
        throw new UsageError('--scope must be read or write');
      let expiresInDays: number | undefined;
      if (values.expires !== undefined) {
        expiresInDays = Number(values.expires);
        if (!Number.isFinite(expiresInDays) || expiresInDays <= 0)
          throw new UsageError('--expires must be a positive number of days');
      }
      const { key, info } = await createApiKey({
        db: await db(),
        clock,
        projectId: forProject ?? null,
        scope: values.scope,
        expiresInDays,
      });
      io.out(
        `created ${info.scope} key ${info.id} for ${info.projectId ?? 'all projects'}, expires ${iso(info.expiresAt)}`,
      );
      io.out('the key is shown once; store it now:');
      io.out(key);
    },
  },
  'key list': {
    usage: 'key list',
    summary: 'Keys with prefix, scope, project, state, and created, last used and expiry times (never the key itself).',
    async run({ db, io, clock }) {
      const keys = await listApiKeys(await db());
      if (!keys.length) {
        io.out('no keys');
        return;
      }
      const now = clock().getTime();
      for (const k of keys) {
        const state = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= now ? 'expired' : 'active';
        io.out(
          `${k.id}\t${k.prefix}…\t${k.scope}\t${k.projectId ?? 'all projects'}\t${state}\tcreated ${iso(k.createdAt)}\tlast used ${iso(k.lastUsedAt)}\texpires ${iso(k.expiresAt)}`,
        );
      }
    },
  },
  'key revoke': {
    usage: 'key revoke <id>',
    summary: 'Revokes a key at once.',
    async run({ positionals, db, clock, io }) {
      const [id] = positionals;
      if (!id) throw new UsageError('give the key id');
      const info = await revokeApiKey({ db: await db(), clock, id });
      io.out(`revoked key ${info.id}`);
    },
  },
};
