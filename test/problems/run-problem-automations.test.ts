import fs from 'node:fs';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { getJob, listMessages } from '../../src/jobs/job-store.js';
import type { GitHubApp } from '../../src/github/github-app.js';
import { createLogger } from '../../src/logger.js';
import type { Project } from '../../src/projects/projects.js';
import { parseAutomationsConfig } from '../../src/automations/parse-config.js';
import { createProblems, type Problems } from '../../src/problems/problems.js';
import { runProblemAutomations } from '../../src/problems/run-problem-automations.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';
import { writeRangesFile } from '../support/ai-traffic.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CONFIG = `automations:
  - id: redirects
    on: { problems: { kind: missing-page, minReaders: 3 } }
    prompt: Redirect what readers cannot find.
`;

/** `readers` people (one address each) getting a 404 for `path` on 2026-11-20. */
const misses = (path: string, readers: number, first = 1) =>
  Array.from(
    { length: readers },
    (_, i) =>
      `198.51.100.${first + i} - - [20/Nov/2026:10:00:${String(i).padStart(2, '0')} +0000] "GET ${path} HTTP/1.1" 404 512 "-" "${CHROME}"`,
  );

describe.each(PROVIDERS)('on: problems automations on %s', (provider) => {
  let app: TestApp;
  let ranges: ReturnType<typeof writeRangesFile>;
  let project: Project;
  let problems: Problems;
  let run: () => Promise<string[]>;

  beforeAll(async () => {
    ranges = writeRangesFile();
    app = await startTestApp({
      provider,
      routes: [],
      env: { SCRIBE_AI_RANGES_FILE: ranges.file, SCRIBE_AI_REVERSE_DNS: 'off' },
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const { db, clock, config, database } = app.ctx;
    project = await app.project();
    const jobs = createJobRequests({ db, clock, jobs: config.jobs, missing: [], wake: () => undefined });
    problems = createProblems({
      db,
      clock,
      signals: app.services.analytics.problemSignals(),
      jobs,
      pages: async () => [],
    });
    const { automations } = parseAutomationsConfig(CONFIG);
    run = () =>
      runProblemAutomations({
        db,
        clock,
        database,
        runsPerDay: 10,
        // no pull request is open yet: the automation's job is never looked up on GitHub
        github: {} as GitHubApp,
        jobs,
        problems,
        logger: createLogger('silent'),
        configs: async () => [
          { projectId: project.id, sha: 'abc', automations, problems: [], firstSeen: {}, loadedAt: clock() },
        ],
      });
  });

  const importLog = (lines: string[]) =>
    app.services.analytics.importLogs({
      projectId: project.id,
      format: 'auto',
      input: (async function* () {
        yield `${lines.join('\n')}\n`;
      })(),
    });
  const queue = async () =>
    (await problems.list(project, { limit: 100, dateFrom: Date.UTC(2026, 10, 14), dateTo: Date.UTC(2026, 10, 21) }))
      .problems;

  it('hands the open problems with enough readers to one job, batched, and starts nothing twice', async () => {
    await importLog([...misses('/old-a', 3), ...misses('/rare', 2, 50)]);
    const [first] = await run();
    expect(first).toMatch(new RegExp(`^${project.id}/redirects: run \\S+ \\(running\\)$`));
    const byPath = new Map((await queue()).map((p) => [p.paths[0], p]));
    const a = byPath.get('/old-a')!;
    expect(a.status).toBe('in_progress');
    expect(byPath.get('/rare')!).toMatchObject({ status: 'open', jobId: null }); // 2 readers, fewer than 3
    const job = await getJob(app.ctx.db, project.id, a.jobId!);
    expect(JSON.parse(job.cause!)).toEqual({
      problems: [{ id: a.id, kind: 'missing-page', title: 'Not found: /old-a' }],
    });
    const [message] = await listMessages(app.ctx.db, job.id);
    expect(message.prompt).toMatch(/^Redirect what readers cannot find\.\n\nFix this problem/);
    expect(message.prompt).toContain('Requested URL: /old-a');

    expect(await run()).toEqual([]); // nothing open is due

    // a second URL crosses the threshold while the job is still at work: the same job takes it as a follow-up
    await importLog(misses('/old-b', 4, 100));
    expect(await run()).toHaveLength(1);
    const b = (await queue()).find((p) => p.paths[0] === '/old-b')!;
    expect(b).toMatchObject({ status: 'in_progress', jobId: job.id });
    const messages = await listMessages(app.ctx.db, job.id);
    expect(messages).toHaveLength(2);
    expect(messages[1].prompt).toContain('Requested URL: /old-b');
  });
});
