import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { describeOutcome, formatEvent } from '../../src/cli/job-commands.js';
import { computeOutcome } from '../../src/outcomes/compute-outcome.js';
import { noVisitors, type WindowCounts } from '../../src/analytics/reports/outcome-counts.js';
import { appendEvent, archiveJob, listJobs } from '../../src/jobs/job-store.js';
import { startTestApp, type TestApp, jobRoutes } from '../support/test-app.js';
import { testAppPrivateKey } from '../support/app-private-key.js';
import { outcomesFor } from '../support/outcome-routes.js';
import { recordDocsMerge } from '../../src/outcomes/merge-store.js';

const privateKey = testAppPrivateKey();

describe('scribe job … (the public API as a client)', () => {
  let app: TestApp;
  let projectId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [jobRoutes({ outcomes: outcomesFor({ analytics }).of })],
      env: { APP_ID: '1', PRIVATE_KEY: privateKey, ANTHROPIC_API_KEY: 'test' },
    });
    projectId = (await app.project({ repository: 'acme/cli-docs' })).id;
    env = {
      SCRIBE_URL: app.url,
      SCRIBE_API_KEY: await app.key(projectId, 'write'),
      DATABASE_URL: 'file:/nonexistent-dir-not-used/x.db',
    };
  });
  afterAll(async () => {
    await app.close();
  });

  const run = async (argv: string[], extraEnv: Record<string, string> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(argv, io, { ...env, ...extraEnv });
    return { code, out, err };
  };

  it('creates a job (id as the last line), lists it and shows it with its events', async () => {
    const created = await run(['job', 'create', '--project', projectId, 'Fix the typo in the quickstart']);
    expect(created.code).toBe(0);
    const jobId = created.out.at(-1)!;
    expect(created.out[0]).toMatch(new RegExp(`^created job ${jobId} on http.*/acme/cli-docs \\(branch scribe/`));

    const listed = await run(['job', 'list', '--project', projectId]);
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0].split('\t').slice(0, 2)).toEqual([jobId, 'active']);

    await appendEvent({ db: app.ctx.db, clock: app.ctx.clock, jobId, type: 'stage', data: { stage: 'clone' } });
    const shown = await run(['job', 'show', jobId, '--project', projectId]);
    expect(shown.out[0]).toBe(`job ${jobId}  active`);
    expect(shown.out).toContain('  pull request: -');
    expect(shown.out.some((l) => /stage\s+stage=clone/.test(l))).toBe(true);
  });

  it("job outcome prints a merged pull request's windows and verdict, and says when there is none yet", async () => {
    const created = await run(['job', 'create', '--project', projectId, 'Explain the setup page']);
    const jobId = created.out.at(-1)!;
    const none = await run(['job', 'outcome', jobId, '--project', projectId]);
    expect(none.out).toEqual([`job ${jobId}: no outcome yet (its pull request has not merged)`]);
    const mergedAt = new Date(Date.now() - 3.5 * 86_400_000);
    await recordDocsMerge({
      db: app.ctx.db,
      clock: app.ctx.clock,
      merge: {
        jobId,
        projectId,
        repository: 'acme/cli-docs',
        number: 4,
        mergedAt,
        pages: [{ path: '/setup', change: 'edited' }],
      },
    });
    const shown = await run(['job', 'outcome', jobId, '--project', projectId]);
    expect(shown.code).toBe(0);
    expect(shown.out[0]).toMatch(/^verdict: pending {2}\(merged /);
    expect(shown.out[1]).toBe(
      '7 days (partial, 3 days so far): humans 0 → 0  AI 0 → 0  misses 0 → 0  thumbs 0/0 → 0/0  comments 0 → 0  pending',
    );
    expect(shown.out[2]).toBe(
      '  /setup (edited): humans 0 → 0  AI 0 → 0  misses 0 → 0  thumbs 0/0 → 0/0  comments 0 → 0  pending',
    );
    expect(shown.out).toHaveLength(7);
  });

  it('job outcome prints the click-through of the search gaps the job was started to fix', () => {
    const DAY = 86_400_000;
    const side = (searches: number, clicks: number, training = 0, assistant = 0): WindowCounts => ({
      pages: new Map(),
      total: {
        ...noVisitors(),
        ai: training + assistant,
        aiByPurpose: { ...noVisitors().aiByPurpose, training, assistant },
        thumbsUp: 0,
        thumbsDown: 0,
        comments: 0,
      },
      misses: new Map(),
      searches: { searches, clicks, byQuery: new Map([['sso "setup"', { searches, clicks }]]) },
    });
    const outcome = computeOutcome({
      mergedAt: 0,
      liveAt: 600_000,
      now: 600_000 + 8 * DAY,
      pages: [{ path: '/sso', change: 'added' }],
      counts: new Map([[7, { before: side(20, 0, 3, 0), after: side(20, 15, 1, 4) }]]),
      gaps: [{ id: 'pb_1', query: 'sso "setup"' }],
    });
    const lines = describeOutcome(outcome);
    expect(lines).toContain('  search "sso \\"setup\\"": 0% → 75%  improved');
    // the AI visitors by purpose, those with any on either side, under the window's totals
    expect(lines).toContain('  AI by purpose: training 3 → 1  assistant 0 → 4');
    expect(lines.filter((l) => l.startsWith('  AI by purpose'))).toHaveLength(1);
    // the 14- and 28-day windows, given no counts here: no searches, no click-through to read
    expect(lines).toContain('  search "sso \\"setup\\"": – → –  too little data');
  });

  it('--wait follows the event log until the job ends', async () => {
    const waiting = run(['job', 'create', '--project', projectId, '--wait', 'Document the new flag']);
    let jobId: string | undefined;
    for (let i = 0; i < 50 && !jobId; i++) {
      await new Promise((r) => setTimeout(r, 100));
      jobId = (await listJobs({ db: app.ctx.db, projectId, status: 'active', limit: 1, offset: 0 })).jobs.find((j) =>
        j.branch.includes('document-the-new-flag'),
      )?.id;
    }
    expect(jobId).toBeDefined();
    await appendEvent({
      db: app.ctx.db,
      clock: app.ctx.clock,
      jobId: jobId!,
      type: 'tool_call',
      data: { tool: 'str_replace_based_edit_tool', path: 'docs/flags.md' },
    });
    await new Promise((r) => setTimeout(r, 1500));
    await archiveJob({ db: app.ctx.db, clock: app.ctx.clock, projectId, jobId: jobId! });
    const result = await waiting;
    expect(result.code).toBe(0);
    expect(result.err.some((l) => l.includes('tool_call') && l.includes('path=docs/flags.md'))).toBe(true);
    expect(result.out.at(-1)).toBe(`job ${jobId} was archived`);
  });

  it('reports API errors and missing configuration as sentences', async () => {
    const missingKey = await run(['job', 'list', '--project', projectId], { SCRIBE_API_KEY: '' });
    expect(missingKey.code).toBe(2);
    expect(missingKey.err[0]).toMatch(/^scribe: set SCRIBE_API_KEY/);
    const notFound = await run(['job', 'show', 'job_missing', '--project', projectId]);
    expect(notFound.code).toBe(1);
    expect(notFound.err).toEqual(['scribe: HTTP 404: Job not found']);
    const empty = await run(['job', 'create', '--project', projectId, 'x'.repeat(20_001)]);
    expect(empty.err[0]).toMatch(
      /^scribe: HTTP 400: Invalid job request \(prompt: prompt must be at most 20000 characters\)/,
    );
    const down = await run(['job', 'list', '--project', projectId], { SCRIBE_URL: 'http://127.0.0.1:1' });
    expect(down.err[0]).toMatch(/^scribe: cannot reach Scribe at http:\/\/127\.0\.0\.1:1/);
  });

  it('formats events on one line', () => {
    expect(
      formatEvent({ id: 3, type: 'turn', createdAt: '2026-11-21T10:00:05.123Z', turn: 2, usage: { inputTokens: 5 } }),
    ).toBe('10:00:05  turn       turn=2 usage={"inputTokens":5}');
  });
});
