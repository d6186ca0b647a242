import fs from 'node:fs';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { loadConfig } from '../../src/config.js';
import { createJob } from '../../src/jobs/job-store.js';
import { createOutcomes, type Outcomes } from '../../src/outcomes/outcomes.js';
import type { Outcome } from '../../src/outcomes/compute-outcome.js';
import { gitHubPullRequestFiles } from '../../src/outcomes/github-pull-request-files.js';
import {
  automationWantsComment,
  gitHubOutcomeComments,
  outcomeCommentBody,
  outcomeMarker,
  type PostOutcomeComment,
} from '../../src/outcomes/outcome-comment.js';
import { computeOutcome } from '../../src/outcomes/compute-outcome.js';
import { noVisitors, type WindowCounts } from '../../src/analytics/reports/outcome-counts.js';
import { assignJob, settleJob } from '../../src/problems/problem-store.js';
import type { GitHubApp } from '../../src/github/github-app.js';
import { DAY_MS } from '../../src/calendar.js';
import { startTestApp, jobRoutes, type TestApp } from '../support/test-app.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';
import { hostGitHubApp } from '../support/host-github-app.js';
import { PROVIDERS } from '../support/databases.js';
import { writeRangesFile } from '../support/ai-traffic.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MERGED_AT = Date.UTC(2026, 9, 1);
const LIVE_AT = MERGED_AT + 10 * 60_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DOCS = {
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index'] }] }, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall the CLI.\n',
  'guides/old.mdx': '---\ntitle: Configure\n---\n\nConfigure the CLI with a file in your home directory, or flags.\n',
  'guides/gone.mdx': '---\ntitle: Gone\n---\n\nAn old page nobody needs.\n',
};

interface Hit {
  ip: string;
  path: string;
  status: number;
  ts: number;
}
const logLine = (h: Hit) => {
  const d = new Date(h.ts);
  const pad = (n: number) => String(n).padStart(2, '0');
  const at = `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
  return `${h.ip} - - [${at}] "GET ${h.path} HTTP/1.1" ${h.status} 512 "-" "${CHROME}"`;
};

/**
 * Known truth, 35 days each side of live time, every hit a reader of its own: /guides/old (moved to /guides/renamed)
 * has 3 readers a day before and its new path 6 after; /guides/setup doubles from 4 to 8; /guides/legacy (redirected
 * to setup by the pull request) misses 2 a day before and none after; /guides/gone (deleted) is read once a day
 * before and missed once a day after.
 */
function traffic(): Hit[] {
  const hits: Hit[] = [];
  let n = 0;
  const ip = () => {
    n++;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };
  for (let day = -35; day < 35; day++) {
    const after = day >= 0;
    const at = (i: number) => LIVE_AT + day * DAY_MS + 3_600_000 + i * 60_000;
    const add = (path: string, status: number, count: number) => {
      for (let i = 0; i < count; i++) hits.push({ ip: ip(), path, status, ts: at(hits.length % 600) });
    };
    add(after ? '/guides/renamed' : '/guides/old', 200, after ? 6 : 3);
    add('/guides/setup', 200, after ? 8 : 4);
    if (!after) add('/guides/legacy', 404, 2);
    add('/guides/gone', after ? 404 : 200, 1);
  }
  return hits;
}

const within = (hits: Hit[], from: number, to: number, path: string, status: number) =>
  hits.filter((h) => h.ts >= from && h.ts < to && h.path === path && h.status === status).length;

describe('the outcome comment', () => {
  it("shows the click-through of the search gaps the pull request was started to fix, a reader's query as code", () => {
    const side = (searches: Record<string, [number, number]>, comments = 0, searchIndex = 0): WindowCounts => ({
      pages: new Map([['/guides/setup', { ...noVisitors(), thumbsUp: 0, thumbsDown: 0, comments }]]),
      total: {
        ...noVisitors(),
        ai: searchIndex + 2,
        aiByPurpose: { ...noVisitors().aiByPurpose, searchIndex, other: 2 },
        thumbsUp: 0,
        thumbsDown: 0,
        comments,
      },
      misses: new Map(),
      searches: {
        searches: 0,
        clicks: 0,
        byQuery: new Map(Object.entries(searches).map(([q, [n, c]]) => [q, { searches: n, clicks: c }])),
      },
    });
    const hostile = 'see `@octocat` [here](https://evil.example)\nnext';
    const outcome = computeOutcome({
      mergedAt: LIVE_AT - 600_000,
      liveAt: LIVE_AT,
      now: LIVE_AT + 8 * DAY_MS,
      pages: [{ path: '/guides/setup', change: 'edited' }],
      counts: new Map([
        [
          7,
          {
            before: side({ install: [20, 0], [hostile]: [10, 5] }, 2, 0),
            after: side({ install: [20, 10], [hostile]: [10, 1] }, 5, 1200),
          },
        ],
      ]),
      gaps: [
        { id: 'pb-install', query: 'install' },
        { id: 'pb-hostile', query: hostile },
      ],
    });
    const body = outcomeCommentBody({ jobId: 'job_1', outcome, days: 7 });
    expect(body).toContain(
      'Searches this was started to fix, click-through into these pages: `install` 0% → 50% (improved); ' +
        '`see  @octocat  [here](https://evil.example) next` 50% → 10% (worse).',
    );
    // the AI visitors by purpose, those with any on either side
    expect(body).toContain('AI visitors by purpose: search index 0 → 1,200 · other AI 2 → 2.');
    // each page's new comments beside its helpful share
    expect(body).toContain(
      '| `/guides/setup` | 0 → 0 (too little traffic) | 0 → 0 | 0 → 0 | – → – | 2 → 5 | too little traffic to tell |',
    );
    // no comment line for a pull request not started from search gaps
    const plain = computeOutcome({
      mergedAt: LIVE_AT - 600_000,
      liveAt: LIVE_AT,
      now: LIVE_AT + 8 * DAY_MS,
      pages: [],
      counts: new Map(),
    });
    expect(outcomeCommentBody({ jobId: 'job_1', outcome: plain, days: 7 })).not.toContain('Searches this');
  });
});

describe.each(PROVIDERS)('the outcome sweep on %s', (provider) => {
  let app: TestApp;
  let host: GitHubHost;
  let github: GitHubApp;
  let ranges: ReturnType<typeof writeRangesFile>;
  let now = new Date(LIVE_AT);
  let repoCount = 0;
  const hits = traffic();

  beforeAll(async () => {
    host = await startGitHubHost();
    github = hostGitHubApp(host).github;
    ranges = writeRangesFile();
    app = await startTestApp({
      provider,
      env: { SCRIBE_AI_RANGES_FILE: ranges.file, SCRIBE_AI_REVERSE_DNS: 'off' },
      clock: () => now,
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        jobRoutes({ outcomes: () => ({ ofJob: (projectId, jobId) => replica().ofJob(projectId, jobId) }) }),
      ],
    });
  });
  afterAll(async () => {
    await app?.close();
    await host?.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });

  /** One Scribe process's outcomes, as main.ts wires them (each call: another replica on the same database). */
  const replica = (
    options: {
      comment?: PostOutcomeComment | null;
      automations?: { id: string; outcome?: { comment: boolean } }[];
    } = {},
  ): Outcomes =>
    createOutcomes({
      db: app.ctx.db,
      clock: app.ctx.clock,
      pages: async (projectId) => {
        const { repository } = await app.ctx.db.project.findUniqueOrThrow({ where: { id: projectId } });
        return host.listFiles(repository, 'main');
      },
      pullRequestFiles: gitHubPullRequestFiles({ db: app.ctx.db, github }),
      counts: (query) => app.services.analytics.outcomeCounts(query),
      deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
      comment: options.comment === undefined ? gitHubOutcomeComments({ db: app.ctx.db, github }) : options.comment,
      commentWanted: automationWantsComment({ db: app.ctx.db, automations: async () => options.automations ?? [] }),
      claimMs: 60_000,
    });

  /**
   * A docs repository with its traffic, and a Scribe job whose pull request (edit setup, move old → renamed, delete
   * gone, redirect /guides/legacy → /guides/setup in docs.json) the stand-in merges.
   */
  const mergedPullRequest = async () => {
    const repository = `acme/docs-sweep-${provider}-${++repoCount}`;
    host.createRepository(repository, DOCS);
    host.addInstallation(100 + repoCount, [repository]);
    const project = await app.project({ repository, installationId: 100 + repoCount });
    const write = await app.key(project.id, 'write');
    // the traffic is sent once it has all happened (a log line from the future is refused), then time goes back
    const then = now;
    now = new Date(LIVE_AT + 36 * DAY_MS);
    for (let i = 0; i < hits.length; i += 2000) {
      const send = () =>
        fetch(`${app.url}/v1/analytics/${project.id}/logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${write}`, 'content-type': 'text/plain' },
          body: `${hits
            .slice(i, i + 2000)
            .map(logLine)
            .join('\n')}\n`,
        });
      // a kept-alive connection the server closed while idle (its keep-alive timeout) is reset once: send again
      const sent = await send().catch(send);
      expect(sent.status).toBe(202);
    }
    now = then;
    const job = await createJob({
      db: app.ctx.db,
      clock: app.ctx.clock,
      projectId: project.id,
      repository,
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'tidy the guides',
    });
    host.createBranch(repository, `scribe/${job.id}`, 'main');
    const docsJson = {
      name: 'Acme',
      navigation: [{ group: 'Start', pages: ['index'] }],
      redirects: [{ source: '/guides/legacy', destination: '/guides/setup' }],
    };
    host.commitFiles(
      repository,
      `scribe/${job.id}`,
      {
        'docs.json': `${JSON.stringify(docsJson, null, 2)}\n`,
        'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall the CLI with npm.\n',
        'guides/old.mdx': null,
        'guides/renamed.mdx': DOCS['guides/old.mdx'],
        'guides/gone.mdx': null,
      },
      'Tidy the guides',
    );
    const pr = host.openPullRequest(repository, { head: `scribe/${job.id}`, title: 'Tidy the guides' });
    host.closePullRequest(repository, pr.number, true);
    await replica().onJobPullRequestClosed({
      jobId: job.id,
      projectId: project.id,
      repository,
      number: pr.number,
      merged: true,
      mergedAt: new Date(MERGED_AT).toISOString(),
    });
    const read = await app.key(project.id, 'read');
    return { repository, project, job, pr, read };
  };
  const commentsOn = (repository: string, number: number) =>
    host.comments.filter((c) => c.repository === repository && c.number === number && !c.deleted);

  it('follows moved pages, reports deleted ones and counts a redirect’s misses, exactly', async () => {
    now = new Date(LIVE_AT + 30 * DAY_MS);
    const { project, job, read } = await mergedPullRequest();
    const res = await fetch(`${app.url}/v2/agent/${project.id}/job/${job.id}`, {
      headers: { authorization: `Bearer ${read}` },
    });
    const { outcome } = (await res.json()) as { outcome: Outcome };
    expect(outcome.deleted).toEqual([{ path: '/guides/gone' }]);
    for (const w of outcome.windows) {
      const before = [LIVE_AT - w.days * DAY_MS, LIVE_AT] as const;
      const after = [LIVE_AT, LIVE_AT + w.days * DAY_MS] as const;
      expect(w.pages.map((p) => [p.path, p.change, p.from])).toEqual([
        ['/guides/renamed', 'moved', '/guides/old'],
        ['/guides/setup', 'edited', undefined],
        ['/guides/setup', 'redirected', '/guides/legacy'],
      ]);
      const renamed = w.pages[0];
      // the old path's readers are the moved page's before
      expect(renamed.humanVisitors).toMatchObject({
        before: within(hits, ...before, '/guides/old', 200),
        after: within(hits, ...after, '/guides/renamed', 200),
      });
      expect(renamed.humanVisitors.before).toBe(3 * w.days);
      expect(w.misses).toEqual([
        { url: '/guides/gone', before: 0, after: within(hits, ...after, '/guides/gone', 404) },
        { url: '/guides/old', before: 0, after: 0 },
        { url: '/guides/legacy', before: within(hits, ...before, '/guides/legacy', 404), after: 0 },
      ]);
      expect(w.pages[2].misses).toEqual({ before: 2 * w.days, after: 0 });
      expect(w.total.humanVisitors).toMatchObject({
        before: ['/guides/old', '/guides/setup', '/guides/renamed'].reduce(
          (n, p) => n + within(hits, ...before, p, 200),
          0,
        ),
        after: ['/guides/old', '/guides/setup', '/guides/renamed'].reduce(
          (n, p) => n + within(hits, ...after, p, 200),
          0,
        ),
      });
      expect(w.total.verdict).toBe('helped');
    }
  });

  it('reads never settle problems nor comment; the sweep does, once across replicas, and edits the comment at 28 days', async () => {
    now = new Date(LIVE_AT + 8 * DAY_MS);
    const { repository, project, job, pr, read } = await mergedPullRequest();
    const { db, clock } = app.ctx;
    await assignJob({
      db,
      clock,
      projectId: project.id,
      problems: [{ id: 'p-stale', kind: 'stale-page' }],
      jobId: job.id,
    });
    await settleJob({ db, clock, jobId: job.id, merged: true });
    const status = async () =>
      (await db.problemState.findFirstOrThrow({ where: { id: 'p-stale', projectId: project.id } })).status;

    const got = await fetch(`${app.url}/v2/agent/${project.id}/job/${job.id}`, {
      headers: { authorization: `Bearer ${read}` },
    });
    expect(((await got.json()) as { outcome: Outcome }).outcome.windows[0].total.verdict).toBe('helped');
    expect(await status()).toBe('fixed');
    expect(commentsOn(repository, pr.number)).toEqual([]);

    // two replicas sweep at once: one comment, the problem moved once
    const settled: string[][] = [];
    const withHook = () =>
      createOutcomes({
        db,
        clock,
        pages: async () => host.listFiles(repository, 'main'),
        pullRequestFiles: gitHubPullRequestFiles({ db, github }),
        counts: (query) => app.services.analytics.outcomeCounts(query),
        deployDelayMs: app.ctx.config.outcomes.deployDelayMs,
        comment: gitHubOutcomeComments({ db, github }),
        onSettled: async (_tx, s) =>
          void (
            s.merge.jobId === job.id &&
            settled.push([String(s.days), ...s.problems.map((p) => `${p.id}:${p.from}→${p.to}`)])
          ),
      });
    await Promise.all([withHook().sweep(), withHook().sweep()]);
    expect(await status()).toBe('verified');
    expect(settled).toEqual([['7', 'p-stale:fixed→verified']]);
    let comments = commentsOn(repository, pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].body.startsWith(outcomeMarker(job.id))).toBe(true);
    expect(comments[0].body).toContain('helped after 7 days');
    expect(comments[0].body).toContain('`/guides/renamed` (moved from `/guides/old`)');
    expect(comments[0].body).toContain('Deleted by this pull request: `/guides/gone`');

    await replica().sweep();
    now = new Date(LIVE_AT + 15 * DAY_MS);
    await withHook().sweep();
    expect(settled.map((s) => s[0])).toEqual(['7', '14']);
    comments = commentsOn(repository, pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].edits ?? 0).toBe(0);

    now = new Date(LIVE_AT + 29 * DAY_MS);
    await Promise.all([replica().sweep(), replica().sweep()]);
    comments = commentsOn(repository, pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].edits).toBe(1);
    expect(comments[0].body).toContain('helped after 28 days');
    expect(comments[0].body).not.toContain('edited with the 28-day figures');
    await replica().sweep();
    expect(commentsOn(repository, pr.number)[0].edits).toBe(1);
  });

  it('posts one comment after a restart between posting and recording it, and takes over a stale claim', async () => {
    now = new Date(LIVE_AT + 8 * DAY_MS);
    const { repository, job, pr } = await mergedPullRequest();
    const real = gitHubOutcomeComments({ db: app.ctx.db, github });
    // the process posts, then dies before it records the comment (its claim is released by the error here)
    await replica({
      comment: async (c) => {
        await real(c);
        throw new Error('socket hang up');
      },
    }).sweep();
    expect(commentsOn(repository, pr.number)).toHaveLength(1);
    const row = await app.ctx.db.docsPullRequestMerge.findUniqueOrThrow({ where: { jobId: job.id } });
    expect([row.commentDays, row.commentId]).toEqual([0, null]);
    await replica().sweep();
    const comments = commentsOn(repository, pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].edits).toBe(1);
    expect((await app.ctx.db.docsPullRequestMerge.findUniqueOrThrow({ where: { jobId: job.id } })).commentId).toBe(
      String(comments[0].id),
    );

    // a claim left by a process that stopped mid-post holds for its lease, then is taken over
    now = new Date(LIVE_AT + 29 * DAY_MS);
    await app.ctx.db.docsPullRequestMerge.update({ where: { jobId: job.id }, data: { commentClaimedAt: now } });
    await replica().sweep();
    expect(commentsOn(repository, pr.number)[0].edits).toBe(1);
    now = new Date(now.getTime() + 61_000);
    await replica().sweep();
    expect(commentsOn(repository, pr.number)[0].edits).toBe(2);
  });

  it('posts nothing with SCRIBE_OUTCOME_COMMENTS=off or for an automation with outcome: { comment: false }', async () => {
    expect(loadConfig({ SCRIBE_OUTCOME_COMMENTS: 'off' }).outcomes.comments).toBe(false);
    expect(loadConfig({}).outcomes.comments).toBe(true);
    expect(() => loadConfig({ SCRIBE_OUTCOME_COMMENTS: 'maybe' })).toThrow(/SCRIBE_OUTCOME_COMMENTS/);
    now = new Date(LIVE_AT + 8 * DAY_MS);

    const off = await mergedPullRequest();
    await replica({ comment: null }).sweep();
    expect(commentsOn(off.repository, off.pr.number)).toEqual([]);
    now = new Date(LIVE_AT + 29 * DAY_MS);
    await replica().sweep(); // comments turned on later: what was off stays off
    expect(commentsOn(off.repository, off.pr.number)).toEqual([]);

    now = new Date(LIVE_AT + 8 * DAY_MS);
    const quiet = await mergedPullRequest();
    const loud = await mergedPullRequest();
    const runOf = async (jobId: string, projectId: string, automationId: string) =>
      app.ctx.db.automationRun.create({
        data: {
          id: `run_${jobId}`,
          projectId,
          automationId,
          dedupeKey: jobId,
          trigger: 'schedule',
          summary: 'weekly',
          status: 'pull_request_opened',
          jobId,
          createdAt: now,
          updatedAt: now,
        },
      });
    await runOf(quiet.job.id, quiet.project.id, 'weekly');
    await runOf(loud.job.id, loud.project.id, 'nightly');
    await replica({ automations: [{ id: 'weekly', outcome: { comment: false } }, { id: 'nightly' }] }).sweep();
    expect(commentsOn(quiet.repository, quiet.pr.number)).toEqual([]);
    expect(commentsOn(loud.repository, loud.pr.number)).toHaveLength(1);
  });
});
