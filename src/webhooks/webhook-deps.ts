import type { EmitterWebhookEvent, EmitterWebhookEventName } from '@octokit/webhooks';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import type { JobRequests } from '../jobs/job-requests.js';
import type { Automations } from '../automations/automations.js';
import type { Reviews } from '../reviews/reviews.js';
import type { GitHubApp, InstallationOctokit } from '../github/github-app.js';
import type { DocsDrafts } from '../reviews/docs-drafts.js';

/** What webhook handlers use; built once in main.ts. */
export interface WebhookDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Config;
  github: GitHubApp;
  /** the App's slug, for `@<slug>` mentions */
  appSlug(): Promise<string>;
  /** how jobs and follow-ups are asked for, the same way the API asks */
  jobs: JobRequests;
  /** push-triggered automations and their config; null while agent jobs cannot run */
  automations: Automations | null;
  /** docs drafts of source pull requests; null while agent jobs cannot run */
  docsDrafts: DocsDrafts | null;
  /** docs reviews of source pull requests; null until the App is configured */
  reviews: Reviews | null;
  /** told once a Scribe pull request closed (merged or not) is recorded on its job (the problems it fixes settle) */
  onJobPullRequestClosed?: JobPullRequestClosed;
}

export type JobPullRequestClosed = (closed: {
  jobId: string;
  projectId: string;
  repository: string;
  number: number;
  merged: boolean;
  /** ISO, as GitHub sent it */
  mergedAt: string | null;
}) => Promise<void>;

/** One delivery as a handler sees it: the payload and an Octokit authenticated as the delivery's installation. */
export interface Delivery<E extends EmitterWebhookEventName> {
  id: string;
  name: string;
  payload: EmitterWebhookEvent<E>['payload'];
  octokit: InstallationOctokit;
}

/** How a delivery ended, kept on its WebhookDelivery row (never the payload). */
export interface HandlerResult {
  status: 'done' | 'ignored';
  outcome: string;
}

export const ignored = (outcome: string): HandlerResult => ({ status: 'ignored', outcome });
export const done = (outcome: string): HandlerResult => ({ status: 'done', outcome });
