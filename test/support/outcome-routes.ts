import type { RouteModule } from '../../src/http/app.js';
import type { AppContext } from '../../src/http/context.js';
import { outcomeRoutes } from '../../src/http/routes/outcomes.js';
import { createOutcomes, type Outcomes } from '../../src/outcomes/outcomes.js';
import type { Analytics } from '../../src/analytics/analytics.js';

/**
 * Outcomes as main.ts wires them, on a test app's context (the docs files given; a merge read through them changes no
 * page, as a merge is recorded directly in these tests): `routes` is the outcomes list,
 * `of` what the job routes are given (`jobRoutes({ outcomes: … })`) for a job's `outcome`.
 */
export function outcomesFor(params: { analytics: Analytics; files?: string[] }): {
  routes: RouteModule;
  of: (ctx: AppContext) => Outcomes;
} {
  const made = new WeakMap<AppContext, Outcomes>();
  const of = (ctx: AppContext) => {
    let outcomes = made.get(ctx);
    if (!outcomes) {
      outcomes = createOutcomes({
        db: ctx.db,
        clock: ctx.clock,
        pages: async () => params.files ?? [],
        pullRequestFiles: async () => [],
        counts: (query) => params.analytics.outcomeCounts(query),
        stamps: (projectId, span) => params.analytics.outcomeStamps(projectId, span),
        signals: (query) => params.analytics.outcomeSignals(query),
        queries: (query) => params.analytics.outcomeQueries(query),
        deployDelayMs: ctx.config.outcomes.deployDelayMs,
      });
      made.set(ctx, outcomes);
    }
    return outcomes;
  };
  return { routes: (router, ctx) => outcomeRoutes({ outcomes: of(ctx) })(router, ctx), of };
}
