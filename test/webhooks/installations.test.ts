import { runCli } from '../../src/cli/run-cli.js';
import { addProject, findProjectByRepository } from '../../src/projects/projects.js';
import { DISABLED } from '../../src/projects/installation-projects.js';
import { findDelivery } from '../../src/webhooks/deliveries.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { examplePayload, startGitHubE2E, type GitHubE2E } from '../support/github-harness.js';

const INSTALLATION = 5151;
const DOCS = { 'index.md': '# Docs\n' };

function installationPayload(action: string, repositories: string[]) {
  const payload = examplePayload('installation', action);
  payload.installation.id = INSTALLATION;
  payload.repositories = repositories.map((full_name, i) => ({
    id: 100 + i,
    node_id: 'R',
    name: full_name.split('/')[1],
    full_name,
    private: true,
  }));
  return payload;
}

function repositoriesPayload(action: 'added' | 'removed', repositories: string[]) {
  const payload = examplePayload('installation_repositories', action);
  payload.installation.id = INSTALLATION;
  const list = repositories.map((full_name, i) => ({
    id: 200 + i,
    node_id: 'R',
    name: full_name.split('/')[1],
    full_name,
    private: true,
  }));
  payload.repositories_added = action === 'added' ? list : [];
  payload.repositories_removed = action === 'removed' ? list : [];
  return payload;
}

describe.each(PROVIDERS)('installations become projects on %s', (provider) => {
  let e2e: GitHubE2E;
  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    e2e.github.createRepository('acme/handbook', DOCS, 'trunk');
    e2e.github.createRepository('acme/api-docs', DOCS);
    e2e.github.createRepository('acme/guides', DOCS, 'develop');
    e2e.github.createRepository('acme/manual', DOCS);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  const db = () => e2e.database.db;
  const project = (repository: string) => findProjectByRepository(db(), repository);
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    await runCli(
      argv,
      { out: (l) => out.push(l), err: () => undefined, stdin: process.stdin, interactive: false },
      { DATABASE_URL: e2e.database.target.url },
    );
    return out;
  };

  it('installation.created makes a project per repository on its default branch; a manual project is kept and adopted', async () => {
    const manual = await addProject({
      db: db(),
      clock: () => new Date(),
      repository: 'acme/manual',
      ref: 'main',
      hostnames: ['docs.acme.com'],
    });
    e2e.github.addInstallation(INSTALLATION, ['acme/handbook', 'acme/api-docs', 'acme/manual']);
    const delivery = await e2e.send(
      'installation',
      installationPayload('created', ['acme/handbook', 'acme/api-docs', 'acme/manual']),
    );
    expect(delivery).toMatchObject({ status: 'done', event: 'installation', action: 'created' });

    expect(await project('acme/handbook')).toMatchObject({
      ref: 'trunk',
      installationId: INSTALLATION,
      source: 'installation',
      disabledAt: null,
    });
    expect(await project('acme/api-docs')).toMatchObject({
      ref: 'main',
      installationId: INSTALLATION,
      source: 'installation',
    });
    expect(await project('acme/manual')).toMatchObject({
      id: manual.id,
      ref: 'main',
      installationId: INSTALLATION,
      source: 'manual',
      hostnames: ['docs.acme.com'],
    });
    // One listing call answered all three default branches.
    expect(e2e.github.calls.filter((c) => c.path === '/installation/repositories')).toHaveLength(1);

    const lines = await cli('project', 'list');
    expect(lines.find((l) => l.includes('acme/handbook'))).toMatch(
      /\tacme\/handbook\ttrunk\tinstallation 5151\tinstallation\tenabled\t/,
    );
    expect(lines.find((l) => l.includes('acme/manual'))).toMatch(
      /\tacme\/manual\tmain\tinstallation 5151\tmanual\tenabled\t/,
    );
  });

  it('added repositories become projects; removed ones are disabled, their jobs fail with a clear error, and re-adding restores the same project', async () => {
    e2e.github.addInstallation(INSTALLATION, ['acme/handbook', 'acme/api-docs', 'acme/manual', 'acme/guides']);
    expect(await e2e.send('installation_repositories', repositoriesPayload('added', ['acme/guides']))).toMatchObject({
      status: 'done',
      outcome: 'acme/guides: created',
    });
    const guides = (await project('acme/guides'))!;
    expect(guides).toMatchObject({ ref: 'develop', source: 'installation', installationId: INSTALLATION });

    e2e.github.revokeAccess('acme/guides');
    expect(await e2e.send('installation_repositories', repositoriesPayload('removed', ['acme/guides']))).toMatchObject({
      status: 'done',
      outcome: 'disabled 1 project(s)',
    });
    const disabled = (await project('acme/guides'))!;
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect(disabled.disabledReason).toBe(DISABLED.removed);
    expect((await cli('project', 'list')).find((l) => l.includes('acme/guides'))).toContain(
      `\tdisabled: ${DISABLED.removed}\t`,
    );

    // A job on the disabled project fails before the model is asked anything, saying what to do.
    const key = await e2e.keyFor(guides.id);
    const requestsBefore = e2e.anthropic.requests.length;
    const created = await e2e.api(`/v2/agent/${guides.id}/job`, { key, body: { prompt: 'Fix the intro' } });
    expect(created.status).toBe(201);
    const failed = await waitFor(async () => {
      const job = await e2e.api(`/v2/agent/${guides.id}/job/${created.body.id}`, { key });
      return job.body.status === 'failed' ? job.body : undefined;
    }, 'the job to fail');
    expect(failed.error).toBe(
      `The project for acme/guides is disabled: ${DISABLED.removed}. Install the GitHub App on the repository again to use it`,
    );
    expect(e2e.anthropic.requests.length).toBe(requestsBefore);

    e2e.github.addInstallation(INSTALLATION, ['acme/handbook', 'acme/api-docs', 'acme/manual', 'acme/guides']);
    expect(await e2e.send('installation_repositories', repositoriesPayload('added', ['acme/guides']))).toMatchObject({
      outcome: 'acme/guides: restored',
    });
    expect(await project('acme/guides')).toMatchObject({
      id: guides.id,
      ref: 'develop',
      disabledAt: null,
      disabledReason: null,
    });
    // Its keys and jobs are still there.
    expect((await e2e.api(`/v2/agent/${guides.id}/job/${created.body.id}`, { key })).body.status).toBe('failed');
  });

  it('suspend disables the installation’s projects and unsuspend restores them; deleting the installation disables them for good', async () => {
    await e2e.send('installation_repositories', repositoriesPayload('removed', ['acme/api-docs']));
    const suspend = await e2e.send('installation', installationPayload('suspend', []));
    expect(suspend.outcome).toBe('disabled 3 project(s)');
    for (const repository of ['acme/handbook', 'acme/manual', 'acme/guides'])
      expect((await project(repository))!.disabledReason).toBe(DISABLED.suspended);

    expect((await e2e.send('installation', installationPayload('unsuspend', []))).outcome).toBe('enabled 3 project(s)');
    expect((await project('acme/handbook'))!.disabledAt).toBeNull();
    // Removed before the suspension, so unsuspending does not bring it back.
    expect((await project('acme/api-docs'))!.disabledReason).toBe(DISABLED.removed);

    await e2e.send('installation', installationPayload('deleted', ['acme/handbook', 'acme/manual', 'acme/guides']));
    for (const repository of ['acme/handbook', 'acme/manual', 'acme/guides'])
      expect((await project(repository))!.disabledReason).toBe(DISABLED.uninstalled);
  });

  it('processes a delivery at most once: a redelivery answers 200 and changes nothing', async () => {
    e2e.github.addInstallation(INSTALLATION, ['acme/handbook']);
    const removed = await e2e.deliver('installation_repositories', repositoriesPayload('removed', ['acme/handbook']));
    expect(removed.status).toBe(200);
    expect((await e2e.settled(removed.id)).outcome).toBe('disabled 0 project(s)');
    await e2e.send('installation_repositories', repositoriesPayload('added', ['acme/handbook']));
    expect((await project('acme/handbook'))!.disabledAt).toBeNull();

    // GitHub's "Redeliver" sends the same X-GitHub-Delivery again: it must not disable the project a second time.
    const again = await e2e.deliver('installation_repositories', repositoriesPayload('removed', ['acme/handbook']), {
      id: removed.id,
    });
    expect(again.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await project('acme/handbook'))!.disabledAt).toBeNull();
    expect(await e2e.database.db.webhookDelivery.count({ where: { id: removed.id } })).toBe(1);
    expect(
      e2e.logs.some(
        (l) => l.delivery === removed.id && l.msg === 'webhook delivery already received; not processed again',
      ),
    ).toBe(true);
  });

  it('answers before the work is done, rejects bad signatures, and never logs a payload', async () => {
    // The installation's repository listing hangs until released; GitHub must get its answer all the same.
    e2e.github.addInstallation(INSTALLATION, ['acme/handbook']);
    const listing = e2e.github.holdNext('GET', /^\/installation\/repositories$/);
    const slow = await e2e.deliver('installation_repositories', repositoriesPayload('added', ['acme/handbook']));
    expect(slow.status).toBe(200);
    await listing.reached;
    expect((await findDelivery(e2e.database.db, slow.id))?.status).toBe('received');
    listing.release();
    expect((await e2e.settled(slow.id)).status).toBe('done');

    const payload = repositoriesPayload('removed', ['acme/handbook']);
    payload.sender.login = 'payload-marker-9f3e';
    const bad = await e2e.deliver('installation_repositories', payload, { signature: `sha256=${'ab'.repeat(32)}` });
    expect(bad.status).toBe(400);
    expect(await e2e.database.db.webhookDelivery.count({ where: { id: bad.id } })).toBe(0);
    expect((await project('acme/handbook'))!.disabledAt).toBeNull();
    const logged = JSON.stringify(e2e.logs);
    expect(logged).not.toContain('payload-marker-9f3e');
    expect(e2e.logs.some((l) => l.level >= 40 && /signature/i.test(JSON.stringify(l)))).toBe(true);
  });
});
