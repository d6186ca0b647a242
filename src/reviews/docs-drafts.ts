import type { RunEnd } from '../jobs/run-types.js';
import type { AutomationDeps } from '../automations/automation-deps.js';
import { findDraftByJob } from './docs-draft-store.js';
import { requestDraft, type DraftAnswer, type DraftRequest } from './request-draft.js';
import { followSourcePull, type SourcePullEvent } from './follow-source-pull.js';
import { bringDraftTo } from './bring-draft-to.js';
import { fetchSourcePull } from './source-pull.js';
import { findDocsCheckRun, linkDraftOnCheckRun, readCheckRun } from './docs-check-run.js';
import { latestReview } from './review-store.js';

/** Docs drafts of source pull requests, as the webhook handlers and the job worker reach them. */
export interface DocsDrafts {
  /** someone with write access to the source repository asked for a draft (requested action or comment) */
  request(request: DraftRequest): Promise<DraftAnswer>;
  /** the source pull request got new commits, merged, closed or reopened */
  follow(event: SourcePullEvent): Promise<string>;
  /**
   * a run of a job ended (the worker's run-end listener): a draft's pull request is linked from the source pull
   * request's `Scribe docs` check run, and brought to the source's state if that changed before it existed
   */
  onRunEnd(end: RunEnd): Promise<void>;
}

export function createDocsDrafts(deps: AutomationDeps): DocsDrafts {
  return {
    request: (request) => requestDraft(deps, request),
    follow: (event) => followSourcePull(deps, event),
    async onRunEnd(end) {
      if ('error' in end || !end.outcome.prLink) return;
      const draft = await findDraftByJob(deps.db, end.job.id);
      if (!draft) return;
      const { github } = deps;
      const octokit = await github.octokit(await github.installationFor(draft.repository, null));
      const pull = await fetchSourcePull({ octokit, repository: draft.repository, number: draft.number });
      // The check run of the automation's newest review, else the head commit's `Scribe docs` check run.
      const review = await latestReview({ db: deps.db, ...draft });
      const checkRun = review?.checkRunId
        ? await readCheckRun({ octokit, repository: draft.repository, id: review.checkRunId })
        : await findDocsCheckRun({ octokit, repository: draft.repository, sha: pull.headSha });
      if (checkRun)
        await linkDraftOnCheckRun({ octokit, repository: draft.repository, checkRun, prLink: end.outcome.prLink });
      if (draft.sourceState !== 'open') await bringDraftTo(deps, { draft, pull, octokit });
    },
  };
}
