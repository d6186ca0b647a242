import type { IncomingMessage } from 'node:http';
import type { PostedComment, PullRequest } from './github-host.js';

/**
 * The local GitHub host's pull request life cycle beyond opening one (github-host.ts): pull requests people open on
 * a source repository, requested reviewers, reviews, the author, merge state, and GraphQL's
 * `markPullRequestReadyForReview` (the REST API cannot take a pull request out of draft). Kept apart so the host's
 * file stays readable; the host calls `pullRoute` and `graphql` and spreads `pullJson` into its pull request JSON.
 */

/** What a pull request carries beyond what Scribe's own need: set for pull requests people open (`openPullRequest`). */
export interface PullLifeCycle {
  merged?: boolean;
  /** the head commit (read from the head branch when unset) */
  headSha?: string;
  requestedReviewers?: string[];
  reviews?: { id: number; user: string; state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' }[];
}

/** GraphQL's global id of a pull request. */
export const pullNodeId = (pr: PullRequest) =>
  `PR_${Buffer.from(`${pr.repository}#${pr.number}`).toString('base64url')}`;

/** Fields GitHub's REST pull request object has that the host's base JSON leaves out: its life cycle. */
export function pullJson(pr: PullRequest) {
  return {
    node_id: pullNodeId(pr),
    merged: pr.merged === true,
    merged_at: pr.merged ? '2026-11-24T12:00:00Z' : null,
    requested_reviewers: (pr.requestedReviewers ?? []).map((login) => ({ login, type: 'User' })),
  };
}

/**
 * Reviews, requested reviewers and the refusals GitHub gives (reopening a merged pull request, asking a review of
 * someone who cannot see the repository or of the author); null for any other route. `canSee` is the collaborator
 * check (any permission on the repository).
 */
export function pullRoute(params: {
  req: IncomingMessage;
  rest: string;
  repository: string;
  body: any;
  pulls: PullRequest[];
  comments: PostedComment[];
  canSee(login: string): boolean;
  json(pr: PullRequest): unknown;
}): [number, unknown] | null {
  const { req, rest, repository, body } = params;
  const listed = req.method === 'GET' ? rest.match(/^\/issues\/(\d+)\/comments$/) : null;
  if (listed)
    return [
      200,
      params.comments
        .filter((c) => c.repository === repository && c.number === Number(listed[1]) && c.inReplyTo === null)
        .map((c) => ({ id: c.id, body: c.body, user: { login: 'scribe-docs[bot]', type: 'Bot' } })),
    ];
  const m = rest.match(/^\/pulls\/(\d+)(\/reviews|\/requested_reviewers)?$/);
  const pr = m && params.pulls.find((p) => p.repository === repository && p.number === Number(m[1]));
  if (!m || !pr) return null;
  if (!m[2] && req.method === 'PATCH' && body?.state === 'open' && pr.merged)
    return [422, { message: 'Validation Failed', errors: [{ message: 'A merged pull request cannot be reopened' }] }];
  if (m[2] === '/reviews' && req.method === 'GET')
    return [
      200,
      (pr.reviews ?? []).map((r) => ({ id: r.id, user: { login: r.user, type: 'User' }, state: r.state, body: '' })),
    ];
  if (m[2] === '/requested_reviewers' && req.method === 'GET')
    return [200, { users: (pr.requestedReviewers ?? []).map((login) => ({ login, type: 'User' })), teams: [] }];
  if (m[2] === '/requested_reviewers' && req.method === 'POST') {
    const wanted: string[] = Array.isArray(body?.reviewers) ? body.reviewers.map(String) : [];
    if (pr.user && wanted.some((w) => w.toLowerCase() === pr.user!.toLowerCase()))
      return [422, { message: 'Review cannot be requested from pull request author.' }];
    if (wanted.some((w) => !params.canSee(w)))
      return [
        422,
        {
          message:
            'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the repository.',
        },
      ];
    pr.requestedReviewers = [...new Set([...(pr.requestedReviewers ?? []), ...wanted])];
    return [201, params.json(pr)];
  }
  return null;
}

/** POST /api/graphql: `markPullRequestReadyForReview(input: {pullRequestId})`, for a token that reaches the repository. */
export function graphql(params: {
  body: any;
  pulls: PullRequest[];
  canReach(repository: string): boolean;
}): [number, unknown] {
  const query = String(params.body?.query ?? '');
  if (!/\bmarkPullRequestReadyForReview\b/.test(query))
    return [200, { errors: [{ message: 'The local GitHub host answers markPullRequestReadyForReview only' }] }];
  const variables = (params.body?.variables ?? {}) as Record<string, unknown>;
  const inline = query.match(/pullRequestId:\s*"([^"]+)"/);
  const id = String(inline?.[1] ?? variables.pullRequestId ?? variables.id ?? '');
  const pr = params.pulls.find((p) => pullNodeId(p) === id);
  if (!pr || !params.canReach(pr.repository))
    return [
      200,
      {
        data: null,
        errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'` }],
      },
    ];
  if (pr.state !== 'open')
    return [200, { data: null, errors: [{ message: 'Pull request is closed and cannot be marked ready for review' }] }];
  pr.draft = false;
  return [
    200,
    {
      data: { markPullRequestReadyForReview: { pullRequest: { number: pr.number, isDraft: false, url: pr.html_url } } },
    },
  ];
}
