import type { Config } from '../config.js';
import type { JobRecord } from '../jobs/job-store.js';
import type { AutomationRun } from '../automations/run-store.js';
import type { DocsReview } from '../reviews/review-store.js';
import type { RenderEvent } from '../notifications/build-body.js';
import { EVENT_TYPES, isEventType } from '../notifications/event-types.js';
import type { PresentJob } from './routes/present-jobs.js';
import { toRunResponse } from './routes/automations.js';

/** A snapshot read back from the outbox's JSON: its times are Dates again. */
function revive<T>(value: unknown): T {
  const out = { ...(value as Record<string, unknown>) };
  for (const key of ['createdAt', 'updatedAt', 'archivedAt'])
    if (typeof out[key] === 'string') out[key] = new Date(out[key] as string);
  return out as T;
}

/**
 * Renders an outbox event's snapshot as the API shows its object (a job by `presentJob`, the function
 * `GET …/job/{id}` answers with, a run as the runs listing does), so a receiver parses one shape whether it polls or
 * is pushed to. Secrets never enter a snapshot; a review's findings (the draft's input, possibly large) are left out.
 */
export function eventPresenter(params: { config: Pick<Config, 'jobs'>; presentJob: PresentJob }): RenderEvent {
  const base = params.config.jobs.publicUrl ?? '';
  return async ({ type, projectId, data }) => {
    if (!isEventType(type)) return { data, link: null };
    const subject = EVENT_TYPES[type].subject;
    if (subject === 'job') {
      const job = revive<JobRecord>(data.job);
      const shown = await params.presentJob(projectId, job);
      const link = `${base}/v2/agent/${projectId}/job/${job.id}`;
      if (type === 'job.status_changed')
        return {
          data: { job: shown, previousStatus: data.previousStatus, prLink: job.prLink, summary: job.summary },
          link,
        };
      if (type === 'job.message_added') {
        const message = data.message as { seq: number; prompt: string; createdAt: string };
        return { data: { job: shown, message }, link };
      }
      return { data: { job: shown }, link };
    }
    if (subject === 'run') {
      const run = revive<AutomationRun>(data.run);
      return { data: { run: toRunResponse(run) }, link: `${base}/v1/automations/${projectId}/runs` };
    }
    if (subject === 'problem')
      // a problem's stored state, as recorded (notifications/problem-events.ts); evidence and counts are listed
      return { data, link: `${base}/v1/analytics/${projectId}/problems` };
    if (subject === 'outcome') {
      const jobId = (data.outcome as { jobId: string }).jobId;
      return { data, link: `${base}/v2/agent/${projectId}/job/${jobId}` };
    }
    const review = revive<DocsReview>(data.review);
    return {
      data: {
        review: {
          id: review.id,
          automation: review.automationId,
          repository: review.repository,
          number: review.number,
          headSha: review.headSha,
          status: review.status,
          conclusion: review.conclusion,
          title: review.title,
          pageCount: review.pageCount,
          checkRunId: review.checkRunId,
          createdAt: review.createdAt.toISOString(),
          updatedAt: review.updatedAt.toISOString(),
        },
      },
      link: null,
    };
  };
}
