import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { queryRange, type TimeRange } from '../calendar.js';
import { Conflict, NotFound } from '../errors.js';
import { randomId } from '../ids.js';
import type { Project } from '../projects/projects.js';
import type { JobRequests } from '../jobs/job-requests.js';
import { getJob, messageByRequestKey, type JobRecord } from '../jobs/job-store.js';
import type { ProblemSignals } from '../analytics/reports/problem-signals.js';
import { PROBLEM_KINDS, type ProblemKind, type ProblemStatus } from './problem-kinds.js';
import type { DerivedProblem, Problem } from './problem.js';
import { deriveProblems, withDetails } from './derive-problems.js';
import {
  attachJob,
  claimForFix,
  releaseFix,
  setStatus,
  settleJob,
  projectStates,
  statesOf,
  type ProblemState,
} from './problem-store.js';
import { decodeCursor, encodeCursor } from './problem-cursor.js';
import { fixPrompt } from './fix-prompt.js';
import { fixCause } from './fix-cause.js';
import type { ReadSitePages } from './read-site-pages.js';
import type { SitePage } from './redirect-candidates.js';
import { stalePageProblems } from './stale-pages.js';
import { rememberedAnswers } from './remembered-answers.js';

export interface ProblemsQuery {
  dateFrom?: number;
  dateTo?: number;
  kinds?: ProblemKind[];
  statuses?: ProblemStatus[];
  limit: number;
  cursor?: string;
}

export type ProblemChange = { status: 'dismissed'; reason: string } | { status: 'open' };

/** The problems queue of every project: derived from the stored signals, with the work on each stored apart. */
export interface Problems {
  list(project: Project, query: ProblemsQuery): Promise<{ problems: Problem[]; nextCursor: string | null }>;
  update(project: Project, id: string, change: ProblemChange): Promise<Problem>;
  /** one agent job for the problems; the job already fixing them when a fix holds them */
  fix(project: Project, request: { ids: string[]; instructions?: string }): Promise<JobRecord>;
  /** a Scribe pull request closed: its job's problems are fixed (merged) or open again */
  onJobPullRequestClosed(event: { jobId: string; merged: boolean }): Promise<void>;
}

export interface ProblemsDeps {
  db: Db;
  clock: Clock;
  signals: ProblemSignals;
  jobs: JobRequests;
  pages: ReadSitePages;
}

/** How long a second fix of the same problems waits for the first one's job to be stored. */
const WAIT_FOR_FIRST_MS = 10_000;
/** derived problems kept per process (one per project, range and kinds asked): a few pages of a few queues */
const REMEMBERED = 32;

export function createProblems(deps: ProblemsDeps): Problems {
  const { db, clock } = deps;
  const remembered = rememberedAnswers(REMEMBERED);

  /**
   * The problems of the range, most readers first (then id), and where each stands: `stateOf` applies its stored state
   * (read once for the project: states are kept only for problems someone acted on). Applied to those answered only:
   * a queue may hold thousands.
   */
  const read = async (project: Project, range: TimeRange, kinds: readonly ProblemKind[]) => {
    let pages: Promise<SitePage[]> | undefined;
    const params = {
      signals: deps.signals,
      projectId: project.id,
      range,
      pages: () => (pages ??= deps.pages(project)),
    };
    // derived (and ordered) from the signals alone: again only when they changed; states and stale pages every time
    const stamp = await deps.signals.stamp(project.id);
    const derived = await remembered(JSON.stringify([project.id, range, kinds]), stamp, async () =>
      (await deriveProblems({ ...params, kinds: new Set(kinds) })).sort(byReaders),
    );
    const stale = kinds.includes('stale-page') ? await stalePageProblems({ db, ...params }) : [];
    const ordered = stale.length ? [...derived, ...stale].sort(byReaders) : derived;
    const states = await projectStates(db, project.id);
    const links = await prLinks(
      db,
      project.id,
      [...states.values()].map((s) => s.jobId),
    );
    return { ordered, stateOf: (p: DerivedProblem) => withState(p, states.get(p.id), links) };
  };

  /** The problems named, over the default range (the last 30 days): 404 naming the ids it does not know. */
  const find = async (project: Project, ids: string[]): Promise<Problem[]> => {
    const range = queryRange({ now: clock().getTime() });
    const { ordered, stateOf } = await read(project, range, PROBLEM_KINDS);
    const byId = new Map(ordered.map((p) => [p.id, p]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length)
      throw new NotFound(
        unknown.length === 1 ? 'Problem not found' : 'Problems not found',
        unknown.map((id) => ({ message: `${id}: no such problem in this project (over the last 30 days)` })),
      );
    return withDetails(
      ids.map((id) => stateOf(byId.get(id)!)),
      { signals: deps.signals, projectId: project.id, range, pages: () => deps.pages(project) },
    );
  };

  return {
    async list(project, query) {
      const kinds = query.kinds ?? null;
      const statuses = query.statuses ?? null;
      const cursor = query.cursor ? decodeCursor(query.cursor, { ...query, kinds, statuses }) : null;
      const range = cursor?.range ?? queryRange({ ...query, now: clock().getTime() });
      const { ordered, stateOf } = await read(project, range, kinds ?? PROBLEM_KINDS);
      // in order past the cursor, those of the statuses asked, one more than a page (is there a next?)
      const page: Problem[] = [];
      for (const derived of ordered) {
        if (cursor && !(byReaders(derived, cursor) > 0)) continue;
        const problem = stateOf(derived);
        if (statuses && !statuses.includes(problem.status)) continue;
        page.push(problem);
        if (page.length > query.limit) break;
      }
      const more = page.length > query.limit;
      page.length = Math.min(page.length, query.limit);
      const last = page.at(-1);
      return {
        problems: await withDetails(page, {
          signals: deps.signals,
          projectId: project.id,
          range,
          pages: () => deps.pages(project),
        }),
        nextCursor:
          more && last
            ? encodeCursor({ from: range.from, to: range.to, kinds, statuses, readers: last.readers, id: last.id })
            : null,
      };
    },

    async update(project, id, change) {
      const [problem] = await find(project, [id]);
      if (change.status === 'dismissed' && problem.status === 'in_progress')
        throw new Conflict(`Problem ${id} is being fixed by job ${problem.jobId}; open it again before dismissing it`);
      await setStatus({ db, clock, projectId: project.id, id, kind: problem.kind, ...change });
      const [updated] = await find(project, [id]);
      return updated;
    },

    async fix(project, request) {
      const ids = [...new Set(request.ids)];
      const problems = await find(project, ids);
      // asked again for what one fix already holds (its job stored, or about to be): that fix's job
      if (problems.every((p) => p.status === 'in_progress')) {
        const held = [...(await statesOf(db, project.id, ids)).values()];
        const fixKeys = new Set(held.map((s) => s.fixKey));
        if (held.length === ids.length && fixKeys.size === 1)
          return firstFix(deps, project.id, { fixKey: held[0].fixKey, jobId: held[0].jobId });
      }
      const refused = problems.filter((p) => p.status !== 'open');
      if (refused.length)
        throw new Conflict(
          'Only open problems can be fixed',
          refused.map((p) => ({
            message: `${p.id} is ${p.status}${p.status === 'in_progress' ? ` (job ${p.jobId ?? 'starting'})` : ''}`,
          })),
        );
      const fixKey = randomId('fix');
      const claim = await claimForFix({ db, clock, projectId: project.id, problems, fixKey });
      if (!claim.claimed) return firstFix(deps, project.id, claim.heldBy);
      let job: JobRecord;
      try {
        job = await deps.jobs.create({
          project,
          prompt: fixPrompt(problems, request.instructions),
          branchFrom: problems.length === 1 ? problems[0].title : `fix ${problems.length} reader problems`,
          requestKey: requestKeyOf(fixKey),
          cause: fixCause(problems),
        });
      } catch (err) {
        await releaseFix({ db, projectId: project.id, fixKey, taken: claim.taken });
        throw err;
      }
      await attachJob({ db, clock, projectId: project.id, fixKey, jobId: job.id });
      return job;
    },

    async onJobPullRequestClosed(event) {
      await settleJob({ db, clock, ...event });
    },
  };
}

const requestKeyOf = (fixKey: string) => `problems:${fixKey}`;

/** The queue's order: most readers first, then id (code units). */
function byReaders(a: { readers: number; id: string }, b: { readers: number; id: string }): number {
  return b.readers - a.readers || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The job of the fix that holds a problem: stored already, or about to be (the holder is between its claim and its
 * job), then found by the holder's request key.
 */
async function firstFix(
  deps: ProblemsDeps,
  projectId: string,
  heldBy: { fixKey: string | null; jobId: string | null },
): Promise<JobRecord> {
  if (heldBy.jobId) return getJob(deps.db, projectId, heldBy.jobId);
  // real time, not the injectable clock: this is a wait for another request, not a domain time
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (heldBy.fixKey) {
    const found = await messageByRequestKey(deps.db, projectId, requestKeyOf(heldBy.fixKey));
    if (found) return found.job;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Conflict('These problems are being fixed by another request that has not started its job yet; try again');
}

/** The pull request links of the jobs working on problems (a job since removed has none). */
async function prLinks(db: Db, projectId: string, jobIds: (string | null)[]): Promise<Map<string, string | null>> {
  const links = new Map<string, string | null>();
  for (const id of new Set(jobIds)) {
    if (!id) continue;
    const job = await getJob(db, projectId, id).catch((err: unknown) => {
      if (err instanceof NotFound) return null;
      throw err;
    });
    links.set(id, job?.prLink ?? null);
  }
  return links;
}

/**
 * Where the work on a derived problem stands. A dismissed problem whose signal came back after the dismissal is open
 * again; everything else is as stored (no state: open).
 */
function withState(
  problem: DerivedProblem,
  state: ProblemState | undefined,
  links: Map<string, string | null>,
): Problem {
  let status: ProblemStatus = state?.status ?? 'open';
  if (status === 'dismissed' && state?.dismissedAt && problem.lastSeen > state.dismissedAt.getTime()) status = 'open';
  const working = status !== 'open' && status !== 'dismissed';
  const jobId = working ? (state?.jobId ?? null) : null;
  return {
    ...problem,
    status,
    jobId,
    prLink: jobId ? (links.get(jobId) ?? null) : null,
    dismissal:
      status === 'dismissed' && state?.dismissedAt ? { reason: state.reason ?? '', at: state.dismissedAt } : null,
  };
}
