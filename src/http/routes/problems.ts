import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { parseInput } from '../parse-input.js';
import type { Problem } from '../../problems/problem.js';
import type { Problems } from '../../problems/problems.js';
import type { PageStory } from '../../problems/page-story.js';
import { jobPresenter } from './present-jobs.js';
import {
  FixRequest,
  type PageResponse,
  PageQuery,
  type ProblemResponse,
  ProblemsQuery,
  type ProblemsResponse,
  ProblemUpdate,
} from './problems-schemas.js';

/** A problem as the API shows it: times as ISO strings, `trend` computed from the two ranges' readers. */
function problemBody(p: Problem): z.input<typeof ProblemResponse> {
  return {
    id: p.id,
    kind: p.kind,
    status: p.status,
    title: p.title,
    paths: p.paths,
    readers: p.readers,
    trend: {
      previousReaders: p.previousReaders,
      change: p.previousReaders
        ? Math.round(((p.readers - p.previousReaders) / p.previousReaders) * 1000) / 1000
        : null,
    },
    firstSeen: new Date(p.firstSeen).toISOString(),
    lastSeen: new Date(p.lastSeen).toISOString(),
    evidence: p.evidence,
    jobId: p.jobId,
    prLink: p.prLink,
    dismissal: p.dismissal && { reason: p.dismissal.reason, at: p.dismissal.at.toISOString() },
  };
}

/**
 * The problems queue (read key to list, write key to fix and dismiss) and a page's whole story. Listing needs neither
 * the App nor the model; a fix is a job request, refused (503) while agent jobs are not configured.
 */
export const problemRoutes =
  ({ problems, story }: { problems: Problems; story: PageStory }): RouteModule =>
  (router, ctx) => {
    const auth = requireApiKey(ctx);
    const present = jobPresenter(ctx);
    const base = '/v1/analytics/:projectId';

    router.get(`${base}/problems`, auth, async (req, res) => {
      const query = parseInput(ProblemsQuery, req.query, 'query parameters');
      const page = await problems.list(authenticatedProject(res), {
        ...query,
        statuses: query.status,
        kinds: query.kind,
      });
      res.json({ problems: page.problems.map(problemBody), nextCursor: page.nextCursor } satisfies z.input<
        typeof ProblemsResponse
      >);
    });
    router.post(`${base}/problems/fix`, auth, ...jsonBody(), async (req, res) => {
      const request = parseInput(FixRequest, req.body, 'request body');
      const job = await problems.fix(authenticatedProject(res), request);
      res.status(202).json((await present([job]))[0]);
    });
    router.patch(`${base}/problems/:id`, auth, ...jsonBody(), async (req, res) => {
      const change = parseInput(ProblemUpdate, req.body, 'request body');
      res.json(problemBody(await problems.update(authenticatedProject(res), String(req.params.id), change)));
    });
    router.get(`${base}/page`, auth, async (req, res) => {
      const query = parseInput(PageQuery, req.query, 'query parameters');
      res.json((await story(authenticatedProject(res), query)) satisfies z.input<typeof PageResponse>);
    });
  };
