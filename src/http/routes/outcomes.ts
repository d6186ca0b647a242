import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { parseInput } from '../parse-input.js';
import type { Outcomes } from '../../outcomes/outcomes.js';
import { OutcomesQuery, type OutcomesResponse } from './outcomes-schemas.js';

/** The merged Scribe docs pull requests of a project with their outcomes, newest first (read key). */
export const outcomeRoutes =
  ({ outcomes }: { outcomes: Outcomes }): RouteModule =>
  (router, ctx) => {
    const auth = requireApiKey(ctx);
    router.get('/v1/analytics/:projectId/outcomes', auth, async (req, res) => {
      const query = parseInput(OutcomesQuery, req.query, 'query parameters');
      res.json((await outcomes.list(authenticatedProject(res), query)) satisfies z.input<typeof OutcomesResponse>);
    });
  };
