import type { Router } from 'express';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { parseInput } from '../parse-input.js';
import { Unavailable } from '../../errors.js';
import type { Automations } from '../../automations/automations.js';
import type { AutomationRun } from '../../automations/run-store.js';
import type { LoadedConfig } from '../../automations/config-store.js';
import { ListRunsQuery } from './automations-schemas.js';

export function toRunResponse(run: AutomationRun) {
  return {
    id: run.id,
    automation: run.automationId,
    trigger: {
      kind: run.trigger,
      repository: run.repository,
      before: run.beforeSha,
      after: run.afterSha,
      number: run.pullNumber,
      headSha: run.trigger === 'pull_request' ? run.afterSha : null,
      page: run.page,
    },
    status: run.status,
    reason: run.reason,
    jobId: run.jobId,
    prLink: run.prLink,
    summary: run.summary,
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
  };
}

/** Automations: the compatible manual trigger under /v1/workflow, and Scribe's lists of automations and runs. */
export function automationRoutes(options: {
  automations: Automations | null;
  /**
   * the config as docs reviews read it, which need the GitHub App only: the listing answers from it while agent jobs
   * (and so the automations service) are off
   */
  config?: ((projectId: string) => Promise<LoadedConfig>) | null;
}): RouteModule {
  const service = () => {
    if (!options.automations)
      throw new Unavailable(
        'Automations need agent jobs, which are not configured on this server (GitHub App and model)',
      );
    return options.automations;
  };
  return (router: Router, ctx: AppContext) => {
    const auth = requireApiKey(ctx);

    router.post('/v1/workflow/:projectId/:automationId/trigger', auth, async (req, res) => {
      const run = await service().trigger(authenticatedProject(res).id, String(req.params.automationId));
      res.status(202).json({ schemaId: run.automationId, instanceId: run.id, jobId: run.jobId });
    });

    router.get('/v1/automations/:projectId', auth, async (_req, res) => {
      const projectId = authenticatedProject(res).id;
      const config =
        !options.automations && options.config ? await options.config(projectId) : await service().config(projectId);
      res.json({
        configSha: config.sha,
        loadedAt: config.loadedAt.toISOString(),
        automations: config.automations,
        problems: config.problems.map(({ automation, message }) => ({ automation, message })),
      });
    });

    router.get('/v1/automations/:projectId/runs', auth, async (req, res) => {
      const query = parseInput(ListRunsQuery, req.query, 'query');
      const page = await service().runs({
        projectId: authenticatedProject(res).id,
        automationId: query.automation,
        limit: query.limit,
        offset: query.offset,
      });
      res.json({ runs: page.runs.map(toRunResponse), total: page.total });
    });
  };
}
