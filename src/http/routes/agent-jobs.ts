import type { Router } from 'express';
import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { Conflict, Invalid, Unavailable } from '../../errors.js';
import { missingForAgentJobs } from '../../config.js';
import { repositoryUrlFor } from '../../github/github-app.js';
import { branchName } from '../../git/branch-name.js';
import { addMessage, archiveJob, createJob, getJob, listJobs, originalPrompts, type JobRecord } from '../../jobs/job-store.js';
import { pullRequestStates } from '../../github/pull-request-state.js';
import { enforceJobRateLimit } from '../../jobs/rate-limit.js';
import { toJobResponse } from '../../jobs/job-view.js';
import { CreateJobRequest, ListJobsQuery, MessageRequest } from './agent-jobs-schemas.js';
import { sendJobEvents } from './agent-jobs-events.js';
import { parseInput } from '../parse-input.js';

function requireConfigured(ctx: AppContext): void {
  const missing = missingForAgentJobs(ctx.config);
  if (missing.length) throw new Unavailable(`Agent jobs are not configured on this server: ${missing.join('; ')}`);
}

/**
 * /v2/agent/:projectId/…: the compatible job API plus Scribe's list, archive and events. `onQueued` lets the
 * worker of this process start a new job at once instead of at its next poll.
 */
export function agentJobRoutes(options: { onQueued?: () => void; onArchived?: (job: JobRecord) => void; shutdown?: AbortSignal } = {}): RouteModule {
  return (router: Router, ctx: AppContext) => {
    const { db, clock } = ctx;
    const auth = requireApiKey(ctx);
    const view = repositoryUrlFor(ctx.config.github);
    const base = '/v2/agent/:projectId';
    const queued = () => options.onQueued?.();
    // The pull request state GitHub reported (merged, closed) lives with the GitHub module; fetched for the page at once.
    const present = async (jobs: JobRecord[]) => {
      const ids = jobs.map((job) => job.id);
      const [states, prompts] = await Promise.all([pullRequestStates(db, jobs), originalPrompts(db, ids)]);
      return jobs.map((job) => toJobResponse(job, view, states.get(job.id), prompts.get(job.id)));
    };

    router.post(`${base}/job`, auth, ...jsonBody(), async (req, res) => {
      const input = parseInput(CreateJobRequest, req.body, 'job request');
      requireConfigured(ctx);
      const { models } = ctx.config.jobs;
      const model = input.model ?? models[0];
      if (!models.includes(model)) throw new Invalid('Invalid job request', [{ message: `model must be one of ${models.join(', ')}` }]);
      const project = authenticatedProject(res);
      await enforceJobRateLimit({ db, clock, projectId: project.id, perHour: ctx.config.jobs.ratePerHour });
      const job = await createJob({
        db,
        clock,
        projectId: project.id,
        repository: project.repository,
        baseRef: input.ref ?? project.ref,
        branch: (id) => branchName(id, input.prompt),
        model,
        draft: input.draft ?? false,
        prompt: input.prompt,
      });
      queued();
      res.status(201).json(toJobResponse(job, view, undefined, input.prompt));
    });

    router.get(`${base}/job/:id`, auth, async (req, res) => {
      res.json((await present([await getJob(db, authenticatedProject(res).id, String(req.params.id))]))[0]);
    });

    router.post(`${base}/job/:id/message`, auth, ...jsonBody(), async (req, res) => {
      const input = parseInput(MessageRequest, req.body, 'message');
      const project = authenticatedProject(res);
      const jobId = String(req.params.id);
      // Refused before the rate limit: a message that cannot be accepted must not use up the budget.
      if ((await getJob(db, project.id, jobId)).status === 'archived') throw new Conflict('Job is archived; create a new job instead');
      requireConfigured(ctx);
      await enforceJobRateLimit({ db, clock, projectId: project.id, perHour: ctx.config.jobs.ratePerHour });
      const job = await addMessage({ db, clock, projectId: project.id, jobId, prompt: input.prompt });
      queued();
      res.json((await present([job]))[0]);
    });

    router.post(`${base}/job/:id/archive`, auth, async (req, res) => {
      const job = await archiveJob({ db, clock, projectId: authenticatedProject(res).id, jobId: String(req.params.id) });
      options.onArchived?.(job);
      res.json((await present([job]))[0]);
    });

    router.get(`${base}/jobs`, auth, async (req, res) => {
      const query = parseInput(ListJobsQuery, req.query, 'query');
      const page = await listJobs({ db, projectId: authenticatedProject(res).id, ...query });
      res.json({ jobs: await present(page.jobs), hasMore: page.hasMore });
    });

    router.get(`${base}/job/:id/events`, auth, async (req, res) => {
      const job = await getJob(db, authenticatedProject(res).id, String(req.params.id));
      await sendJobEvents({ ctx, req, res, job, shutdown: options.shutdown });
    });
  };
}
