import type { Router } from 'express';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { repositoryUrlFor } from '../../github/github-app.js';
import { getJob, listJobs, originalPrompts, type JobRecord } from '../../jobs/job-store.js';
import type { JobRequests } from '../../jobs/job-requests.js';
import type { JobEventNotifier } from '../../jobs/job-event-notifier.js';
import { pullRequestStates, type PullRequestState } from '../../github/pull-request-state.js';
import { CreateJobRequest, ListJobsQuery, MessageRequest, type JobResponse } from './agent-jobs-schemas.js';
import { sendJobEvents } from './agent-jobs-events.js';
import { parseInput } from '../parse-input.js';

/**
 * The job as the API shows it. `repositoryUrl` turns "owner/name" into the web address on the configured GitHub host;
 * `pr` is the recorded state of the job's pull request (a pull request with no recorded event is open).
 */
export function toJobResponse(params: {
  job: JobRecord;
  repositoryUrl: (repository: string) => string;
  pr?: PullRequestState;
  prompt?: string;
}): JobResponse {
  const { job, pr, prompt } = params;
  return {
    id: job.id,
    status: job.status,
    source: { repository: params.repositoryUrl(job.repository), ref: job.branch },
    model: job.model,
    prLink: job.prLink,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    archivedAt: job.archivedAt ? job.archivedAt.toISOString() : null,
    error: job.status === 'failed' ? job.error : null,
    summary: job.summary,
    usage: { inputTokens: job.inputTokens, outputTokens: job.outputTokens },
    pr: pr ?? (job.prLink ? { state: 'open', merged: false, mergedAt: null } : null),
    prompt: prompt ?? null,
  };
}

/**
 * /v2/agent/:projectId/…: the compatible job API plus Scribe's list, archive and events. Jobs are asked for through
 * `jobs`, the same requests GitHub comments make; event streams wait on `events`, and `shutdown` ends them.
 */
export function agentJobRoutes(options: {
  jobs: JobRequests;
  events: JobEventNotifier;
  shutdown?: AbortSignal;
}): RouteModule {
  const { jobs } = options;
  return (router: Router, ctx: AppContext) => {
    const { db } = ctx;
    const auth = requireApiKey(ctx);
    const view = repositoryUrlFor(ctx.config.github);
    const base = '/v2/agent/:projectId';
    // The pull request state GitHub reported (merged, closed) lives with the GitHub module; fetched for the page at once.
    const present = async (page: JobRecord[]) => {
      const ids = page.map((job) => job.id);
      const [states, prompts] = await Promise.all([pullRequestStates(db, page), originalPrompts(db, ids)]);
      return page.map((job) =>
        toJobResponse({ job, repositoryUrl: view, pr: states.get(job.id), prompt: prompts.get(job.id) }),
      );
    };

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
      res.json((await present([await getJob(db, authenticatedProject(res).id, String(req.params.id))]))[0]);
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
