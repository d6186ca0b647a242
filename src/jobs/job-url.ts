import type { JobsConfig } from '../config.js';
import type { JobRecord } from './job-store.js';

/** The job's address in this Scribe's API, for links from pull requests and comments; null without a public URL. */
export function jobUrl(jobs: JobsConfig, job: JobRecord): string | null {
  return jobs.publicUrl ? `${jobs.publicUrl}/v2/agent/${job.projectId}/job/${job.id}` : null;
}
