import type { RouteModule } from '../app.js';
import { migrationNames } from '../../db/migrate.js';

/** /healthz: the process answers. /readyz: the database answers and every migration is applied. */
export const healthRoutes: RouteModule = (router, ctx) => {
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      const rows = await ctx.db.$queryRawUnsafe<{ migration_name: string }[]>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const applied = new Set(rows.map((r) => r.migration_name));
      const pending = migrationNames(ctx.database).filter((name) => !applied.has(name));
      if (pending.length) {
        res
          .status(503)
          .json({ status: 'unavailable', error: `Database has ${pending.length} pending migration(s)`, pending });
        return;
      }
      res.json({ status: 'ok', database: ctx.database.provider });
    } catch {
      res.status(503).json({ status: 'unavailable', error: 'Database is not reachable' });
    }
  });
};
