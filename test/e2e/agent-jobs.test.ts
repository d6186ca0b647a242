import { edit, overloaded, reply, text } from '../support/anthropic-server.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { forTask, leftoverWorkspaces, startE2E, type E2E } from '../support/e2e-harness.js';

const final = (title: string, summary: string) => reply([text(`Title: ${title}\n\n${summary}`)]);

describe.each(PROVIDERS)('agent jobs end to end on %s', (provider) => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E(provider);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('edit → a pull request as the app with exactly the intended diff; a follow-up adds a commit to the same PR', async () => {
    const { github, anthropic } = e2e;
    anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'guide/start.md',
            old_str: 'Install the CLI.\n',
            new_str: 'Install the CLI.\n\nThen run `acme init`.\n',
          }),
        ]),
        final('Explain acme init', 'Added the init step to the start guide.'),
      ],
      forTask('[edit-flow] Mention acme init'),
    );
    const created = await e2e.createJob({ prompt: '[edit-flow] Mention acme init in the start guide', draft: true });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to finish');
    expect(job).toMatchObject({
      status: 'completed',
      error: null,
      summary: 'Added the init step to the start guide.',
      usage: { inputTokens: 200, outputTokens: 100 },
    });
    const branch = created.source.ref;
    expect(branch).toMatch(/^scribe\/[a-z0-9]{8}-edit-flow-mention-acme-init/);

    const [pr] = github.pulls.filter((p) => p.head === branch);
    expect(job.prLink).toBe(pr.html_url);
    expect(pr).toMatchObject({ base: 'main', draft: true, title: 'Explain acme init', state: 'open' });
    expect(pr.body).toContain('Added the init step to the start guide.');
    expect(pr.body).toContain('> [edit-flow] Mention acme init in the start guide');
    expect(pr.body).toContain(`https://scribe.acme.test/v2/agent/${e2e.projectId}/job/${created.id}`);
    expect(github.diff('acme/docs', 'main', branch, ['--name-only']).trim()).toBe('guide/start.md');
    expect(github.readFile('acme/docs', branch, 'guide/start.md')).toBe(
      '# Start\n\nInstall the CLI.\n\nThen run `acme init`.\n',
    );
    const [commit] = github.log('acme/docs', branch);
    expect(commit).toMatchObject({
      author: 'scribe-docs[bot]',
      email: `${github.app.botUserId}+scribe-docs[bot]@users.noreply.127.0.0.1`,
      subject: 'Explain acme init',
    });

    // A fresh installation token for the clone and another for the push.
    const pushes = github.gitRequests.filter((r) => r.service === 'git-receive-pack' && r.method === 'POST');
    const fetches = github.gitRequests.filter((r) => r.service === 'git-upload-pack' && r.method === 'POST');
    expect(pushes).toHaveLength(1);
    expect(pushes[0].token).not.toBe(fetches.at(-1)!.token);
    expect(github.tokens.find((t) => t.token === pushes[0].token)!.issuedAt).toBeGreaterThanOrEqual(
      github.tokens.find((t) => t.token === fetches.at(-1)!.token)!.issuedAt,
    );
    expect(leftoverWorkspaces(e2e)).toEqual([]);

    const events = await e2e.events(created.id);
    const types = events.map((e) => e.type);
    for (const type of [
      'created',
      'run_started',
      'cloned',
      'turn',
      'tool_call',
      'text',
      'committed',
      'pull_request',
      'completed',
    ])
      expect(types).toContain(type);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({
      tool: 'str_replace_based_edit_tool',
      path: 'guide/start.md',
      ok: true,
    });
    expect(events.filter((e) => e.type === 'stage').map((e) => e.stage)).toEqual([
      'github',
      'clone',
      'agent',
      'commit',
      'push',
      'pull_request',
    ]);

    // Follow-up: same branch, same PR, one more commit.
    anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'index.mdx',
            old_str: '# Acme docs\n',
            new_str: '# Acme documentation\n',
          }),
        ]),
        final('Rename the home heading', 'Renamed the heading.'),
      ],
      forTask('[edit-flow-2] Rename'),
    );
    const followed = await e2e.request(`/v2/agent/${e2e.projectId}/job/${created.id}/message`, {
      body: { prompt: '[edit-flow-2] Rename the home heading' },
    });
    expect(followed.status).toBe(200);
    expect(followed.body.status).toBe('active');
    const again = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the follow-up to finish');
    expect(again).toMatchObject({
      status: 'completed',
      prLink: pr.html_url,
      usage: { inputTokens: 400, outputTokens: 200 },
    });
    expect(github.pulls.filter((p) => p.head === branch)).toHaveLength(1);
    const commits = github.log('acme/docs', branch);
    expect(commits.map((c) => c.subject).slice(0, 2)).toEqual(['Rename the home heading', 'Explain acme init']);
    expect(github.diff('acme/docs', 'main', branch, ['--name-only']).trim().split('\n').sort()).toEqual([
      'guide/start.md',
      'index.mdx',
    ]);
    expect(pr.comments.at(-1)).toContain('[edit-flow-2] Rename the home heading');
    expect(pr.body).toContain('### Follow-up 1');
    // The follow-up run saw the earlier instruction and worked on top of the first commit.
    const followUpRequest = anthropic.requests.find((r) =>
      JSON.stringify(r.body.messages[0]).includes('[edit-flow-2]'),
    )!;
    expect(JSON.stringify(followUpRequest.body.messages[0])).toContain('[edit-flow] Mention acme init');
    expect(leftoverWorkspaces(e2e)).toEqual([]);
  });

  it('no change → completed, no pull request, no branch left behind', async () => {
    e2e.anthropic.script([final('Nothing to change', 'The guide already covers this.')], forTask('[noop]'));
    const created = await e2e.createJob({ prompt: '[noop] Make sure the guide mentions installing' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to finish');
    expect(job).toMatchObject({ status: 'completed', prLink: null, error: null });
    expect(e2e.github.branches('acme/docs')).not.toContain(created.source.ref);
    expect(e2e.github.pulls.some((p) => p.head === created.source.ref)).toBe(false);
    expect((await e2e.events(created.id)).map((e) => e.type)).toContain('no_changes');
  });

  it('model overloaded after the SDK retries → failed with an actionable error, events say where', async () => {
    e2e.anthropic.script([overloaded(3, { retryAfterMs: 5 })], forTask('[overload]'));
    const created = await e2e.createJob({ prompt: '[overload] Rewrite the home page' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/overloaded/i);
    expect(job.prLink).toBeNull();
    const failed = (await e2e.events(created.id)).find((e) => e.type === 'failed');
    expect(failed).toMatchObject({ stage: 'agent' });
    expect(e2e.anthropic.requests.filter((r) => r.status === 529).length).toBeGreaterThanOrEqual(3);
    expect(leftoverWorkspaces(e2e)).toEqual([]);
  });

  it('archiving a running job stops its agent within seconds; nothing is pushed', async () => {
    const { anthropic } = e2e;
    anthropic.script([reply([text('thinking…')], { delayMs: 60_000 })], forTask('[archive]'));
    const created = await e2e.createJob({ prompt: '[archive] Rewrite everything slowly' });
    await waitFor(
      () => anthropic.requests.some((r) => JSON.stringify(r.body.messages[0]).includes('[archive]')),
      'the model call',
    );
    const archived = await e2e.request(`/v2/agent/${e2e.projectId}/job/${created.id}/archive`, { method: 'POST' });
    expect(archived.body).toMatchObject({ status: 'archived' });
    const held = anthropic.requests.find((r) => JSON.stringify(r.body.messages[0]).includes('[archive]'))!;
    await waitFor(() => held.status === 499, 'the model call to be abandoned', 10_000);
    await waitFor(
      async () => (await e2e.events(created.id)).some((e) => e.type === 'stopped'),
      'the stopped event',
      10_000,
    );
    expect(await e2e.job(created.id)).toMatchObject({ status: 'archived', prLink: null });
    expect(e2e.github.branches('acme/docs')).not.toContain(created.source.ref);
    await waitFor(() => leftoverWorkspaces(e2e).length === 0, 'the workspace removed', 5_000);
  });
});
