import type { InstallationOctokit } from './github-app.js';

/**
 * Takes a draft pull request out of draft. Only GraphQL can: the REST API's pull request update has no `draft`.
 * `nodeId` is the pull request's global id (`node_id` in REST answers).
 */
export async function markReadyForReview(params: { octokit: InstallationOctokit; nodeId: string }): Promise<void> {
  await params.octokit.graphql(
    `mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }`,
    { id: params.nodeId },
  );
}
