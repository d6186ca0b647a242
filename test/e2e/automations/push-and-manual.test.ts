import { edit, reply, text, toolUse } from '../../support/anthropic-server.js';
import { PROVIDERS } from '../../support/databases.js';
import { waitFor } from '../../support/wait-for.js';
import { forTask } from '../../support/e2e-harness.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import type { CliIo } from '../../../src/cli/command.js';
import { examplePayload, pushPayload, startGitHubE2E, type GitHubE2E } from '../../support/github-harness.js';

const INSTALLATION = 81;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const DOCS = {
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index', 'cli'] }] }, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme docs\n',
  'cli.md': '# CLI\n\nRun `acme`.\n',
};
const SOURCE = { 'src/cli.ts': 'export const flags = [];\n', 'README.md': '# api\n' };
const CONFIG = `automations:
  - id: api-changes
    on:
      push:
        repository: ${SOURCE_REPO}
        paths: ["src/**"]
    prompt: Update the documentation for the code changes below.
  - id: weekly-links
    on:
      schedule: "0 6 * * 1"
    prompt: Find and fix broken links.
  - id: bad-cron
    on:
      schedule: "61 * * * *"
    prompt: never loads
  - id: elsewhere
    on:
      push:
        repository: acme/unknown
    prompt: never loads
    colour: blue
`;
const final = (title: string, summary: string) => reply([text(`Title: ${title}\n\n${summary}`)]);

const push = (params: Omit<Parameters<typeof pushPayload>[0], 'installationId'>) =>
  pushPayload({ ...params, installationId: INSTALLATION });

describe.each(PROVIDERS)('automations on %s', (provider) => {
  let e2e: GitHubE2E;
  let projectId: string;
  let key: string;
  const runs = async (query = '') => (await e2e.api(`/v1/automations/${projectId}/runs${query}`, { key })).body;
  const settledRuns = (count: number) =>
    waitFor(
      async () => {
        const body = await runs('?automation=api-changes');
        return body.runs.length >= count && body.runs.every((r: { status: string }) => r.status !== 'running')
          ? body.runs
          : undefined;
      },
      `${count} settled runs`,
      30_000,
      50,
    );

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    const { github } = e2e;
    github.createRepository(DOCS_REPO, DOCS);
    github.createRepository(SOURCE_REPO, SOURCE);
    github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    key = await e2e.keyFor(projectId);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('reads the config from a push to the docs default branch and reports bad automations on that commit and in the API', async () => {
    const { before, after: introduced } = e2e.github.commitFiles(
      DOCS_REPO,
      'main',
      { '.scribe/automations.yml': CONFIG },
      'Add automations',
    );
    const { after } = e2e.github.commitFiles(
      DOCS_REPO,
      'main',
      { 'index.mdx': '---\ntitle: Home\n---\n\n# Acme docs!\n' },
      'Retitle',
    );
    const payload = push({ repository: DOCS_REPO, before, after });
    payload.commits = [
      { ...payload.commits[0], id: introduced, added: ['.scribe/automations.yml'], modified: [], removed: [] },
      { ...payload.commits[0], id: after, added: [], modified: ['index.mdx'], removed: [] },
    ];
    const delivery = await e2e.send('push', payload);
    expect(delivery.status).toBe('done');
    // reported on the commit that changed the file, not on the push's head
    expect(e2e.github.statuses.filter((s) => s.repository === DOCS_REPO).map((s) => s.sha)).toEqual([introduced]);
    const status = e2e.github.statuses.find((s) => s.repository === DOCS_REPO && s.sha === introduced);
    expect(status).toMatchObject({ state: 'failure', context: 'scribe/automations' });
    expect(status!.description).toMatch(/^2 problems: bad-cron: schedule: invalid value for minute: 61/);

    const listed = await e2e.api(`/v1/automations/${projectId}`, { key });
    expect(listed.status).toBe(200);
    expect(listed.body.configSha).toBe(after);
    expect(listed.body.automations.map((a: { id: string }) => a.id)).toEqual(['api-changes', 'weekly-links']);
    expect(listed.body.problems).toEqual([
      { automation: 'bad-cron', message: 'schedule: invalid value for minute: 61' },
      {
        automation: 'elsewhere',
        message:
          'automation elsewhere: unknown key "colour" (allowed: id, on, timezone, prompt, draft, review, outcome)',
      },
    ]);
  });

  it('a push to the source repository opens a docs pull request whose description links the source change', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({ command: 'view', path: 'source:src/cli.ts' }),
          edit({ command: 'create', path: 'source:src/cli.ts', file_text: 'hacked' }),
          toolUse('list_files', { pattern: '**/*.ts', path: 'source:' }),
        ]),
        reply([
          edit({
            command: 'str_replace',
            path: 'cli.md',
            old_str: 'Run `acme`.\n',
            new_str: 'Run `acme`.\n\nPass `--verbose` for more output.\n',
          }),
        ]),
        final('Document --verbose', 'Added --verbose to the CLI page.'),
      ],
      forTask('Add --verbose flag'),
    );
    const { before, after } = e2e.github.commitFiles(
      SOURCE_REPO,
      'main',
      { 'src/cli.ts': "export const flags = ['--verbose'];\n" },
      'Add --verbose flag',
    );
    e2e.github.associatePull(SOURCE_REPO, after, {
      number: 41,
      title: 'CLI: verbose output',
      body: 'Adds a --verbose flag.',
    });
    const delivery = await e2e.send('push', push({ repository: SOURCE_REPO, before, after }));
    expect(delivery.outcome).toMatch(/api-changes: run arun_\w+ running \(job job_\w+\)/);

    const [run] = await settledRuns(1);
    expect(run).toMatchObject({
      automation: 'api-changes',
      status: 'pull_request_opened',
      trigger: { kind: 'push', repository: SOURCE_REPO, before, after },
    });
    const pr = e2e.github.pulls.find((p) => p.repository === DOCS_REPO && p.html_url === run.prLink)!;
    expect(pr.state).toBe('open');
    expect(pr.body).toContain(
      `[${SOURCE_REPO}@${before.slice(0, 7)}…${after.slice(0, 7)}](${e2e.github.url}/${SOURCE_REPO}/compare/${before}...${after})`,
    );
    expect(pr.body).toContain(`[#41](${e2e.github.url}/${SOURCE_REPO}/pull/41) CLI: verbose output`);
    expect(e2e.github.readFile(DOCS_REPO, pr.head, 'cli.md')).toContain('--verbose');
    // the agent was told the commits, the associated pull request and the diff
    const prompt = JSON.stringify(
      e2e.anthropic.requests.find((r) => forTask('Add --verbose flag').match(r))!.body.messages[0].content,
    );
    expect(prompt).toContain('CLI: verbose output');
    expect(prompt).toContain("+export const flags = ['--verbose'];");
    // the source tree at the pushed commit was readable, and the write into it was refused
    const afterTools = e2e.anthropic.requests.filter((r) => forTask('Add --verbose flag').match(r))[1];
    const results = afterTools.body.messages.at(-1).content as { content: string; is_error?: boolean }[];
    expect(results[0]).toMatchObject({ content: expect.stringContaining("export const flags = ['--verbose'];") });
    expect(results[1]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('The source repository is read-only'),
    });
    expect(results[2].content).toBe('src/cli.ts');
    expect(e2e.github.readFile(SOURCE_REPO, 'main', 'src/cli.ts')).toBe("export const flags = ['--verbose'];\n");
    expect(e2e.github.listFiles(DOCS_REPO, pr.head).filter((f) => f.startsWith('src/'))).toEqual([]);
    const system = JSON.stringify(afterTools.body.system);
    expect(system).toContain(`The source repository ${SOURCE_REPO} at ${after.slice(0, 7)} is read-only context`);
  });

  it('a second push while the pull request is open adds a commit to the same pull request', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'cli.md',
            old_str: 'for more output.\n',
            new_str: 'for more output.\n\nPass `--quiet` for less.\n',
          }),
        ]),
        final('Document --quiet', 'Added --quiet.'),
      ],
      forTask('Add --quiet flag'),
    );
    const openBefore = e2e.github.pulls.filter((p) => p.repository === DOCS_REPO).length;
    const { before, after } = e2e.github.commitFiles(
      SOURCE_REPO,
      'main',
      { 'src/cli.ts': "export const flags = ['--verbose', '--quiet'];\n" },
      'Add --quiet flag',
    );
    await e2e.send('push', push({ repository: SOURCE_REPO, before, after }));
    const [latest, first] = await settledRuns(2);
    expect(latest).toMatchObject({ status: 'pull_request_updated', prLink: first.prLink, jobId: first.jobId });
    expect(e2e.github.pulls.filter((p) => p.repository === DOCS_REPO)).toHaveLength(openBefore);
    const pr = e2e.github.pulls.find((p) => p.html_url === latest.prLink)!;
    expect(
      e2e.github
        .log(DOCS_REPO, pr.head)
        .slice(0, 2)
        .map((c) => c.subject),
    ).toEqual(['Document --quiet', 'Document --verbose']);
    expect(e2e.github.readFile(DOCS_REPO, pr.head, 'cli.md')).toContain('--quiet');
    expect(pr.body).toContain(`${after.slice(0, 7)}](`);
    expect(pr.body).toContain(`${before.slice(0, 7)}](`);
  });

  it('after the pull request is closed the next push opens a new one, and pushes during its run are batched into one next run', async () => {
    const previous = e2e.github.pulls.find((p) => p.repository === DOCS_REPO && p.state === 'open')!;
    previous.state = 'closed';
    e2e.anthropic.script(
      [
        reply([edit({ command: 'create', path: 'flags.md', file_text: '# Flags\n\n`--json`\n' })], { delayMs: 1500 }),
        final('Document --json', 'Added a flags page.'),
      ],
      forTask('Add --json flag'),
    );
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'flags.md',
            old_str: '`--json`\n',
            new_str: '`--json`\n\n`--yaml`\n\n`--toml`\n',
          }),
        ]),
        final('Document --yaml and --toml', 'Both formats.'),
      ],
      forTask('Add --toml flag'),
    );
    const json = e2e.github.commitFiles(SOURCE_REPO, 'main', { 'src/json.ts': 'export {};\n' }, 'Add --json flag');
    await e2e.send('push', push({ repository: SOURCE_REPO, ...json }));
    await waitFor(
      async () => (e2e.anthropic.requests.some((r) => forTask('Add --json flag').match(r)) ? true : undefined),
      'the agent to start',
      10_000,
      20,
    );
    const yaml = e2e.github.commitFiles(SOURCE_REPO, 'main', { 'src/yaml.ts': 'export {};\n' }, 'Add --yaml flag');
    await e2e.send('push', push({ repository: SOURCE_REPO, ...yaml }));
    const toml = e2e.github.commitFiles(SOURCE_REPO, 'main', { 'src/toml.ts': 'export {};\n' }, 'Add --toml flag');
    await e2e.send('push', push({ repository: SOURCE_REPO, ...toml }));

    const [tomlRun, yamlRun, jsonRun] = await settledRuns(5);
    expect(jsonRun).toMatchObject({ status: 'pull_request_opened', trigger: { after: json.after } });
    expect(jsonRun.prLink).not.toBe(previous.html_url);
    expect(yamlRun).toMatchObject({ status: 'pull_request_updated', jobId: jsonRun.jobId, prLink: jsonRun.prLink });
    expect(tomlRun).toMatchObject({ status: 'pull_request_updated', jobId: jsonRun.jobId, prLink: jsonRun.prLink });
    // one run after the first carried out both later pushes: its task names both changes, and no run was given --yaml alone
    const tasks = e2e.anthropic.requests
      .filter((r) => r.body.messages.length === 1)
      .map((r) => JSON.stringify(r.body.messages[0].content));
    const later = tasks.filter((t) => t.slice(t.lastIndexOf('<task>')).includes('Add --yaml flag'));
    expect(later).toHaveLength(1);
    expect(later[0].slice(later[0].lastIndexOf('<task>'))).toContain('Add --toml flag');
    const pr = e2e.github.pulls.find((p) => p.html_url === jsonRun.prLink)!;
    expect(e2e.github.readFile(DOCS_REPO, pr.head, 'flags.md')).toContain('--toml');
    expect(pr.body).toContain(json.after.slice(0, 7));
    expect(pr.body).toContain(toml.after.slice(0, 7));
  });

  it('a push not matching paths, a redelivered push, the same push again and a push by the bot start nothing', async () => {
    const count = async () => (await runs()).total;
    const start = await count();
    const readme = e2e.github.commitFiles(SOURCE_REPO, 'main', { 'README.md': '# api\n\nMore.\n' }, 'Readme only');
    const notMatching = await e2e.send('push', push({ repository: SOURCE_REPO, ...readme }));
    expect(notMatching.outcome).toContain('api-changes: no changed file matches its paths');

    const code = e2e.github.commitFiles(
      SOURCE_REPO,
      'main',
      { 'src/other.ts': 'export {};\n' },
      'Bot change',
      'scribe-docs[bot]',
    );
    const byBot = await e2e.send(
      'push',
      push({ repository: SOURCE_REPO, ...code, sender: 'scribe-docs[bot]', senderType: 'Bot' }),
    );
    expect(byBot).toMatchObject({ status: 'ignored', outcome: 'pushed by Scribe itself' });

    const [latest] = (await runs('?automation=api-changes&limit=1')).runs;
    expect(latest.trigger.after).not.toBe(readme.after);
    const redelivered = push({
      repository: SOURCE_REPO,
      before: latest.trigger.before,
      after: latest.trigger.after,
    });
    const first = await e2e.deliver('push', redelivered, { id: 'push-delivery-1' });
    await e2e.settled(first.id);
    const again = await e2e.deliver('push', redelivered, { id: 'push-delivery-1' });
    expect(again.status).toBe(200);
    expect((await e2e.settled(first.id)).outcome).toContain('this push already started a run');
    expect(await count()).toBe(start);
  });

  it('the trigger endpoint answers 202 with the run and its job, which completes; unknown automations are 404', async () => {
    e2e.anthropic.script([final('Nothing to fix', 'The links are fine.')], forTask('Find and fix broken links.'));
    const res = await e2e.api(`/v1/workflow/${projectId}/weekly-links/trigger`, { key, method: 'POST' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      schemaId: 'weekly-links',
      instanceId: expect.stringMatching(/^arun_/),
      jobId: expect.stringMatching(/^job_/),
    });
    const job = await waitFor(
      async () => {
        const body = (await e2e.api(`/v2/agent/${projectId}/job/${res.body.jobId}`, { key })).body;
        return body.status === 'completed' ? body : undefined;
      },
      'the triggered job to complete',
      30_000,
      50,
    );
    expect(job.status).toBe('completed');
    const run = (await runs('?automation=weekly-links')).runs[0];
    expect(run).toMatchObject({ id: res.body.instanceId, status: 'no_changes', trigger: { kind: 'manual' } });

    const unknown = await e2e.api(`/v1/workflow/${projectId}/bad-cron/trigger`, { key, method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/No automation "bad-cron" is loaded/);
  });

  it('scribe automation list|trigger|runs call the same API', async () => {
    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
      const code = await runCli(argv, io, {
        SCRIBE_URL: e2e.scribe.url,
        SCRIBE_API_KEY: key,
        DATABASE_URL: 'file:/nonexistent-dir-not-used/x.db',
      });
      return { code, out, err };
    };
    const listed = await cli('automation', 'list', '--project', projectId);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`api-changes\tpush ${SOURCE_REPO} paths src/**`);
    expect(listed.out).toContain('weekly-links\tschedule "0 6 * * 1" (UTC)');
    expect(listed.out).toContain('not loaded: bad-cron: schedule: invalid value for minute: 61');

    e2e.anthropic.script([final('Nothing to fix', 'Still fine.')], forTask('Find and fix broken links.'));
    const triggered = await cli('automation', 'trigger', 'weekly-links', '--project', projectId);
    expect(triggered.out[0]).toMatch(/^run arun_\w+ started as job job_\w+$/);
    const missing = await cli('automation', 'trigger', 'nope', '--project', projectId);
    expect(missing.code).not.toBe(0);
    expect(missing.err.join('\n')).toContain('No automation "nope" is loaded');

    const runsOut = await cli(
      'automation',
      'runs',
      '--project',
      projectId,
      '--automation',
      'weekly-links',
      '--limit',
      '1',
    );
    expect(runsOut.out[0].split('\t').slice(0, 2)).toEqual([triggered.out[0].split(' ')[1], 'weekly-links']);
    expect(runsOut.out.at(-1)).toMatch(/^\(1 of 2: use --limit and --offset\)$/);
    await waitFor(
      async () => ((await runs('?automation=weekly-links&limit=1')).runs[0].status === 'no_changes' ? true : undefined),
      'the CLI-triggered run to finish',
      30_000,
      50,
    );
  });

  it('answers as the OpenAPI document says, successes and errors alike', async () => {
    const conformance = openApiConformance(
      (await (await fetch(`${e2e.scribe.url}/openapi.json`)).json()) as Parameters<typeof openApiConformance>[0],
    );
    const call = (method: string, docPath: string, path: string) =>
      fetch(`${e2e.scribe.url}${path}`, { method, headers: { authorization: `Bearer ${key}` } }).then((response) =>
        conformance.check({ method, path: docPath, response }),
      );
    expect((await call('GET', '/v1/automations/{projectId}', `/v1/automations/${projectId}`)).status).toBe(200);
    expect(
      (await call('GET', '/v1/automations/{projectId}/runs', `/v1/automations/${projectId}/runs?limit=3&offset=1`))
        .status,
    ).toBe(200);
    expect(
      (await call('GET', '/v1/automations/{projectId}/runs', `/v1/automations/${projectId}/runs?automation=Not_An_Id`))
        .status,
    ).toBe(400);
    e2e.anthropic.script([final('Nothing to fix', 'Fine.')], forTask('Find and fix broken links.'));
    expect(
      (
        await call(
          'POST',
          '/v1/workflow/{projectId}/{automationId}/trigger',
          `/v1/workflow/${projectId}/weekly-links/trigger`,
        )
      ).status,
    ).toBe(202);
    expect(
      (
        await call(
          'POST',
          '/v1/workflow/{projectId}/{automationId}/trigger',
          `/v1/workflow/${projectId}/missing/trigger`,
        )
      ).status,
    ).toBe(404);
    await waitFor(
      async () => ((await runs('?automation=weekly-links&limit=1')).runs[0].status === 'no_changes' ? true : undefined),
      'the run to finish',
      30_000,
      50,
    );
  });

  it("a run whose job fails is failed with the job's error", async () => {
    e2e.anthropic.script([{ error: { status: 400, message: 'prompt is malformed' } }], forTask('Add --broken flag'));
    const change = e2e.github.commitFiles(
      SOURCE_REPO,
      'main',
      { 'src/broken.ts': 'export {};\n' },
      'Add --broken flag',
    );
    await e2e.send('push', push({ repository: SOURCE_REPO, ...change }));
    const [run] = await settledRuns(6);
    expect(run).toMatchObject({
      trigger: { after: change.after },
      status: 'failed',
      reason: expect.stringContaining('prompt is malformed'),
    });
  });
});

describe.each(PROVIDERS)('the daily cap on %s', (provider) => {
  let e2e: GitHubE2E;
  afterAll(async () => {
    await e2e?.close();
  });

  it('records runs over AUTOMATION_RUNS_PER_DAY as skipped, with why, and queues no job for them; triggers at once start exactly the runs left', async () => {
    e2e = await startGitHubE2E(provider, { AUTOMATION_RUNS_PER_DAY: '7' });
    e2e.github.createRepository(DOCS_REPO, {
      ...DOCS,
      '.scribe/automations.yml':
        'automations:\n  - id: nightly\n    on: { schedule: "0 3 * * *" }\n    prompt: Tidy up.\n',
    });
    e2e.github.addInstallation(INSTALLATION, [DOCS_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    const projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    const key = await e2e.keyFor(projectId);
    e2e.anthropic.fallback(() => final('Tidy', 'Nothing to tidy.'));
    const trigger = () => e2e.api(`/v1/workflow/${projectId}/nightly/trigger`, { key, method: 'POST' });
    for (let i = 0; i < 2; i++)
      expect(await trigger()).toMatchObject({ status: 202, body: { jobId: expect.stringMatching(/^job_/) } });
    // 5 runs left, 10 asked for at once: exactly 5 start
    const atOnce = await Promise.all(Array.from({ length: 10 }, trigger));
    expect(atOnce.map((r) => r.status)).toEqual(Array(10).fill(202));
    expect(atOnce.filter((r) => r.body.jobId !== null)).toHaveLength(5);
    const last = await trigger();
    expect(last).toMatchObject({ status: 202, body: { schemaId: 'nightly', jobId: null } });
    const runs = (await e2e.api(`/v1/automations/${projectId}/runs?limit=100`, { key })).body;
    expect(runs.total).toBe(13);
    expect(runs.runs[0]).toMatchObject({
      id: last.body.instanceId,
      status: 'skipped',
      reason: expect.stringMatching(/over the daily cap of 7 runs/),
    });
    expect(runs.runs.filter((r: { status: string }) => r.status === 'skipped')).toHaveLength(6);
    // each started run asked for a job or a follow-up message; the skipped ones asked for nothing
    expect(await e2e.database.db.agentJobMessage.count()).toBe(7);
  });
});
