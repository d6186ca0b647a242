import type { RouteModule } from '../app.js';
import { migrationNames } from '../../db/migrate.js';

/** A dependency besides the database that readiness checks: a sentence when it is not ready, else what to report. */
export type ReadinessCheck = () => Promise<{ error: string } | { ready: Record<string, unknown> }>;

/** /healthz: the process answers. /readyz: the database answers and every migration is applied. */
export const healthRoutes: RouteModule = (router, ctx) => healthRoutesWith([])(router, ctx, () => undefined);

/** The health routes, /readyz also asking `checks` (ClickHouse when analytics live there). */
export const healthRoutesWith =
  (checks: ReadinessCheck[]): RouteModule =>
  (router, ctx) => {
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
      } catch {
        res.status(503).json({ status: 'unavailable', error: 'Database is not reachable' });
        return;
      }
      let extra: Record<string, unknown> = {};
      for (const check of checks) {
        const outcome = await check();
        if ('error' in outcome) {
          res.status(503).json({ status: 'unavailable', error: outcome.error });
          return;
        }
        extra = { ...extra, ...outcome.ready };
      }
      res.json({ status: 'ok', database: ctx.database.provider, ...extra });
    });
  };
