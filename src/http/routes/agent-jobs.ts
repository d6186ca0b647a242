import type { Router } from 'express';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { repositoryUrlFor } from '../../github/github-app.js';
import { getJob, listJobs } from '../../jobs/job-store.js';
import type { JobRequests } from '../../jobs/job-requests.js';
import type { JobEventNotifier } from '../../jobs/job-event-notifier.js';
import { CreateJobRequest, ListJobsQuery, MessageRequest } from './agent-jobs-schemas.js';
import { jobPresenter, singleJobPresenter, toJobResponse } from './present-jobs.js';
import { sendJobEvents } from './agent-jobs-events.js';
import { parseInput } from '../parse-input.js';
import type { Outcomes } from '../../outcomes/outcomes.js';

/**
 * /v2/agent/:projectId/…: the compatible job API plus Scribe's list, archive and events. Jobs are asked for through
 * `jobs`, the same requests GitHub comments make; event streams wait on `events`, and `shutdown` ends them.
 */
export function agentJobRoutes(options: {
  jobs: JobRequests;
  events: JobEventNotifier;
  shutdown?: AbortSignal;
  /** a merged job's outcome (`outcome` on GET job/:id); null when outcomes are not wired */
  outcomes?: Pick<Outcomes, 'ofJob'> | null;
}): RouteModule {
  const { jobs } = options;
  return (router: Router, ctx: AppContext) => {
    const { db } = ctx;
    const auth = requireApiKey(ctx);
    const view = repositoryUrlFor(ctx.config.github);
    const base = '/v2/agent/:projectId';
    const present = jobPresenter(ctx);
    const presentOne = singleJobPresenter(ctx, options.outcomes);

    router.post(`${base}/job`, auth, ...jsonBody(), async (req, res) => {
      const input = parseInput(CreateJobRequest, req.body, 'job request');
      const job = await jobs.create({
        project: authenticatedProject(res),
        prompt: input.prompt,
        branchFrom: input.prompt,
        ref: input.ref,
        model: input.model,
        draft: input.draft ?? input.asDraft,
      });
      res.status(201).json(toJobResponse({ job, repositoryUrl: view, prompt: input.prompt }));
    });

    router.get(`${base}/job/:id`, auth, async (req, res) => {
      const projectId = authenticatedProject(res).id;
      res.json(await presentOne(projectId, await getJob(db, projectId, String(req.params.id))));
    });

    router.post(`${base}/job/:id/message`, auth, ...jsonBody(), async (req, res) => {
      const input = parseInput(MessageRequest, req.body, 'message');
      const { job } = await jobs.followUp({
        projectId: authenticatedProject(res).id,
        jobId: String(req.params.id),
        prompt: input.prompt,
      });
      res.json((await present([job]))[0]);
    });

    router.post(`${base}/job/:id/archive`, auth, async (req, res) => {
      const job = await jobs.archive({ projectId: authenticatedProject(res).id, jobId: String(req.params.id) });
      res.json((await present([job]))[0]);
    });

    router.get(`${base}/jobs`, auth, async (req, res) => {
      const query = parseInput(ListJobsQuery, req.query, 'query');
      const page = await listJobs({ db, projectId: authenticatedProject(res).id, ...query });
      res.json({ jobs: await present(page.jobs), hasMore: page.hasMore });
    });

    router.get(`${base}/job/:id/events`, auth, async (req, res) => {
      const job = await getJob(db, authenticatedProject(res).id, String(req.params.id));
      await sendJobEvents({ ctx, req, res, job, events: options.events, shutdown: options.shutdown });
    });
  };
}
