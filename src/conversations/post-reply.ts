import type { InstallationOctokit } from '../github/github-app.js';

/** A comment on an issue or pull request, or a reply in a review comment's thread when one is given. */
export async function postReply(params: {
  octokit: InstallationOctokit;
  repository: string;
  issueNumber: number;
  reviewCommentId: number | null;
  body: string;
}): Promise<void> {
  const { octokit, body } = params;
  const [owner, repo] = params.repository.split('/');
  if (params.reviewCommentId) {
    await octokit.rest.pulls.createReplyForReviewComment({
      owner,
      repo,
      pull_number: params.issueNumber,
      comment_id: params.reviewCommentId,
      body,
    });
    return;
  }
  await octokit.rest.issues.createComment({ owner, repo, issue_number: params.issueNumber, body });
}
