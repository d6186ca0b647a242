import { statusOf, type InstallationOctokit } from '../github/github-app.js';
import { markReadyForReview } from '../github/mark-ready-for-review.js';
import { findProject } from '../projects/projects.js';
import { getJob } from '../jobs/job-store.js';
import type { AutomationDeps } from '../automations/automation-deps.js';
import type { DocsDraft } from './docs-draft-store.js';
import { fetchSourcePull, type SourcePull } from './source-pull.js';

const isBotLogin = (login: string) => login.toLowerCase().endsWith('[bot]');

/**
 * Brings the draft's docs pull request to the state its source pull request is in (`draft.sourceState`): merged →
 * out of draft (GraphQL) with a review asked of the source pull request's author and reviewers who can see the docs
 * repository (the others named in a comment); closed → closed with a comment saying why; open → reopened if Scribe
 * closed it. Each step looks at the docs pull request first and each comment carries a marker, so a retried delivery,
 * or the run end that opens a pull request after its source merged, repeats nothing. Returns what it did.
 */
export async function bringDraftTo(
  deps: Pick<AutomationDeps, 'db' | 'github'>,
  params: { draft: DocsDraft; pull?: SourcePull; octokit?: InstallationOctokit },
): Promise<string> {
  const { db, github } = deps;
  const { draft } = params;
  const job = draft.jobId ? await getJob(db, draft.projectId, draft.jobId).catch(() => null) : null;
  const project = await findProject(db, draft.projectId);
  if (!job || !project) return 'no docs pull request: the job or the project is gone';
  const docs = await github.octokit(await github.installationFor(job.repository, project.installationId));
  const [owner, repo] = job.repository.split('/');
  // The job records its pull request after the run's end listeners: one opened moments ago is found by its branch.
  const prNumber =
    job.prNumber ??
    (await docs.rest.pulls.list({ owner, repo, head: `${owner}:${job.branch}`, state: 'all', per_page: 1 })).data[0]
      ?.number;
  if (!prNumber) return 'no docs pull request yet; its run brings it in line when it opens one';
  const issue = { owner, repo, issue_number: prNumber };
  const { data: pr } = await docs.rest.pulls.get({ owner, repo, pull_number: prNumber });
  const source = `[${draft.repository}#${draft.number}](${github.repositoryUrl(draft.repository)}/pull/${draft.number})`;
  const commentOnce = async (marker: string, body: string) => {
    const tag = `<!-- scribe-docs-draft:${marker} -->`;
    const existing = await docs.paginate(docs.rest.issues.listComments, { ...issue, per_page: 100 });
    if (existing.some((c) => c.body?.includes(tag))) return;
    await docs.rest.issues.createComment({ ...issue, body: `${body}\n\n${tag}` });
  };

  if (draft.sourceState === 'closed') {
    if (pr.state !== 'open') return `docs pull request #${pr.number} already closed`;
    await commentOnce(
      `closed-${draft.updatedAt.getTime()}`,
      `The source pull request ${source} was closed without merging, so this docs draft is closed too. Reopening the source pull request reopens it.`,
    );
    await docs.rest.pulls.update({ owner, repo, pull_number: pr.number, state: 'closed' });
    return `docs pull request #${pr.number} closed`;
  }
  if (draft.sourceState === 'open') {
    if (pr.state === 'open' || pr.merged) return `docs pull request #${pr.number} is ${pr.merged ? 'merged' : 'open'}`;
    await docs.rest.pulls.update({ owner, repo, pull_number: pr.number, state: 'open' });
    return `docs pull request #${pr.number} reopened`;
  }
  // merged
  if (pr.state !== 'open') return `docs pull request #${pr.number} is closed; left as it is`;
  if (pr.draft) await markReadyForReview({ octokit: docs, nodeId: pr.node_id });
  const octokit = params.octokit ?? (await github.octokit(await github.installationFor(draft.repository, null)));
  const pull = params.pull ?? (await fetchSourcePull({ octokit, repository: draft.repository, number: draft.number }));
  const [sourceOwner, sourceRepo] = draft.repository.split('/');
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
    owner: sourceOwner,
    repo: sourceRepo,
    pull_number: draft.number,
    per_page: 100,
  });
  const people = new Map<string, string>();
  for (const login of [pull.author, ...reviews.map((r) => r.user?.login ?? ''), ...pull.requestedReviewers])
    if (login && !isBotLogin(login)) people.set(login.toLowerCase(), login);
  const already = new Set((pr.requested_reviewers ?? []).map((u) => u.login.toLowerCase()));
  const reachable: string[] = [];
  const unreachable: string[] = [];
  for (const login of people.values())
    ((await canSee(docs, job.repository, login)) ? reachable : unreachable).push(login);
  const wanted = reachable.filter(
    (l) => !already.has(l.toLowerCase()) && l.toLowerCase() !== pr.user?.login.toLowerCase(),
  );
  if (wanted.length) await docs.rest.pulls.requestReviewers({ owner, repo, pull_number: pr.number, reviewers: wanted });
  if (unreachable.length)
    await commentOnce(
      'merged-others',
      `The source pull request ${source} merged. ${unreachable.map((l) => `@${l}`).join(', ')} worked on it but cannot be asked for a review here (no access to ${job.repository}).`,
    );
  return `docs pull request #${pr.number} ready for review; review asked of ${reachable.join(', ') || 'nobody'}${unreachable.length ? `; named ${unreachable.join(', ')}` : ''}`;
}

/** Whether a user can see the docs repository (any permission): GitHub refuses a review request to others. */
async function canSee(octokit: InstallationOctokit, repository: string, username: string): Promise<boolean> {
  const [owner, repo] = repository.split('/');
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
    return data.permission !== 'none';
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw err;
  }
}
