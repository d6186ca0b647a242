import type { Db } from '../db/client.js';
import type { JobRunHooks } from '../jobs/run-hooks.js';
import { runsOfJob } from './run-store.js';

/**
 * The job runner's hooks the automations answer (jobs/run-hooks.ts): the source a run of an automation's job reads,
 * and the changes its pull request lists. A job no automation started has no runs, so both answer null for it.
 */
export function automationRunHooks(deps: { db: Db }): Pick<JobRunHooks, 'sourceFor' | 'pullRequestNotes'> {
  const { db } = deps;
  return {
    /** the source repository and commit of the job's latest push run (or pull request run: the pull request's head) */
    async sourceFor(job) {
      const pushes = (await runsOfJob(db, job.id)).filter(
        (r) => (r.trigger === 'push' || r.trigger === 'pull_request') && r.repository && r.afterSha,
      );
      const latest = pushes.at(-1);
      return latest ? { repository: latest.repository!, sha: latest.afterSha! } : null;
    },
    /** the running list of changes the pull request covers, one line for each run that was not skipped */
    async pullRequestNotes(job) {
      const runs = await runsOfJob(db, job.id);
      if (!runs.length) return null;
      const lines = runs.filter((r) => r.status !== 'skipped').map((r) => `- ${r.summary}`);
      if (runs[0].trigger === 'pull_request')
        return `### Docs draft\n\nAutomation \`${runs[0].automationId}\` drafts this update for a source pull request and keeps it in step with it:\n\n${lines.join('\n')}`;
      return `### Covered by this pull request\n\nAutomation \`${runs[0].automationId}\` keeps this pull request up to date:\n\n${lines.join('\n')}`;
    },
  };
}
