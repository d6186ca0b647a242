import type { RouteModule } from '../../src/http/app.js';
import { problemRoutes } from '../../src/http/routes/problems.js';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { createProblems, type Problems } from '../../src/problems/problems.js';
import { createPageStory } from '../../src/problems/page-story.js';
import type { Analytics } from '../../src/analytics/analytics.js';
import type { SitePage } from '../../src/problems/redirect-candidates.js';

/**
 * The problems routes as main.ts wires them, on the test app's context: the docs pages given, and job requests that
 * store jobs (no worker runs them; `missing` empty unless given). `onProblems` receives the service, for the hooks
 * main.ts subscribes (a pull request's close).
 */
export function problemRoutesFor(params: {
  analytics: Analytics;
  pages: SitePage[];
  missing?: string[];
  onProblems?: (problems: Problems) => void;
}): RouteModule {
  return (router, ctx) => {
    const jobs = createJobRequests({
      db: ctx.db,
      clock: ctx.clock,
      jobs: ctx.config.jobs,
      missing: params.missing ?? [],
      wake: () => undefined,
    });
    const signals = params.analytics.problemSignals();
    const pages = async () => params.pages;
    const problems = createProblems({ db: ctx.db, clock: ctx.clock, signals, jobs, pages });
    params.onProblems?.(problems);
    problemRoutes({ problems, story: createPageStory({ db: ctx.db, clock: ctx.clock, signals, pages }) })(router, ctx);
  };
}
