import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { waitFor } from '../support/wait-for.js';
import { Conflict, UpstreamTimedOut } from '../../src/errors.js';
import { findConfig } from '../../src/automations/config-store.js';
import { loadedConfig, loadedConfigs } from '../../src/automations/loaded-configs.js';

const CONFIG = 'automations:\n  - id: nightly\n    on: { schedule: "0 3 * * *" }\n    prompt: Tidy up.\n';
const DOCS = { 'index.md': '# Docs\n', '.scribe/automations.yml': CONFIG };

describe.each(PROVIDERS)('loaded configs on %s', (provider) => {
  const bench = useAutomations(provider);
  const contentReads = () => bench.host.calls.filter((c) => c.path.includes('/contents/')).length;

  it('is the stored config, GitHub not asked again', async () => {
    const project = await bench.project({ files: DOCS });
    await bench.loadAutomations(project, []);
    const before = contentReads();
    expect(await loadedConfig(bench.deps, project.id)).toMatchObject({ projectId: project.id, automations: [] });
    expect(contentReads()).toBe(before);
  });

  it("reads a never-read project's config from its default branch and stores it", async () => {
    const project = await bench.project({ files: DOCS });
    const loaded = await loadedConfig(bench.deps, project.id);
    expect(loaded.automations.map((a) => a.id)).toEqual(['nightly']);
    expect(loaded.sha).toBe(bench.host.log(project.repository, 'main')[0].sha);
    expect(await findConfig(bench.deps.db, project.id)).toEqual(loaded);
  });

  it('loads a pull_request automation whose repository the App reaches and reports the one it does not', async () => {
    const config = `automations:
  - id: review-api
    on: { pull_request: { repository: acme/review-api } }
    prompt: Keep the API pages true.
    review: { comment: true }
  - id: review-elsewhere
    on: { pull_request: { repository: acme/nowhere } }
    prompt: never loads
`;
    bench.host.createRepository('acme/review-api', { 'README.md': '# API\n' });
    const project = await bench.project({
      files: { 'index.md': '# Docs\n', '.scribe/automations.yml': config },
      also: ['acme/review-api'],
    });
    const loaded = await loadedConfig(bench.deps, project.id);
    expect(loaded.automations).toEqual([
      {
        id: 'review-api',
        on: { kind: 'pull_request', repository: 'acme/review-api', branches: null, paths: null },
        prompt: 'Keep the API pages true.',
        draft: false,
        review: { comment: true, block: false },
      },
    ]);
    expect(loaded.problems).toEqual([
      {
        automation: 'review-elsewhere',
        message: 'repository acme/nowhere is unknown or the GitHub App is not installed on it',
      },
    ]);
    expect(bench.host.statuses.filter((s) => s.repository === project.repository)).toMatchObject([
      {
        state: 'failure',
        context: 'scribe/automations',
        description: expect.stringMatching(/^1 problem: review-elsewhere/),
      },
    ]);
  });

  it('is a Conflict naming the docs repository when GitHub does not show it to the App, and stores nothing', async () => {
    const project = await bench.project({ files: DOCS });
    bench.host.revokeAccess(project.repository);
    const refused = loadedConfig(bench.deps, project.id);
    await expect(refused).rejects.toBeInstanceOf(Conflict);
    await expect(refused).rejects.toThrow(
      `The docs repository ${project.repository} was not found on GitHub (is the GitHub App installed on it?)`,
    );
    expect(await findConfig(bench.deps.db, project.id)).toBeNull();
  });

  it('reports a config path that is a folder as a problem of the config', async () => {
    const project = await bench.project({
      files: { 'index.md': '# Docs\n', '.scribe/automations.yml/nightly.yml': CONFIG },
    });
    const loaded = await loadedConfig(bench.deps, project.id);
    expect(loaded).toMatchObject({
      sha: null,
      automations: [],
      problems: [{ automation: null, message: '.scribe/automations.yml is not a file' }],
    });
  });

  it('gives up waiting for a first read GitHub is slow to answer; the read goes on and answers the next request', async () => {
    const project = await bench.project({ files: DOCS });
    const held = bench.host.holdNext('GET', /\/contents\//);
    const slow = loadedConfig({ ...bench.deps, firstReadMs: 200 }, project.id);
    await expect(slow).rejects.toBeInstanceOf(UpstreamTimedOut);
    await expect(slow).rejects.toThrow(
      `GitHub did not answer within 0.2 s while reading the docs repository ${project.repository} (it may be down or unreachable); try again later`,
    );
    await held.reached;
    held.release();
    await waitFor(() => findConfig(bench.deps.db, project.id).then((c) => c ?? undefined), 'the read to finish');
    const before = contentReads();
    expect((await loadedConfig(bench.deps, project.id)).automations.map((a) => a.id)).toEqual(['nightly']);
    expect(contentReads()).toBe(before);
  });

  it('lists every stored config and reads the enabled projects never read; one GitHub refuses waits for the next look', async () => {
    const stored = await bench.project({ files: DOCS });
    await bench.loadAutomations(stored, []);
    const fresh = await bench.project({ files: DOCS });
    const disabled = await bench.project({ files: DOCS });
    await bench.deps.db.project.update({ where: { id: disabled.id }, data: { disabledAt: bench.clock() } });
    const unreachable = await bench.project({ files: DOCS });
    bench.host.revokeAccess(unreachable.repository);

    const first = new Map((await loadedConfigs(bench.deps)).map((c) => [c.projectId, c]));
    expect(first.get(stored.id)?.automations).toEqual([]);
    expect(first.get(fresh.id)?.automations.map((a) => a.id)).toEqual(['nightly']);
    expect(first.has(disabled.id)).toBe(false);
    expect(first.has(unreachable.id)).toBe(false);
    expect(bench.logs).toContainEqual(
      expect.objectContaining({
        project: unreachable.id,
        msg: 'could not read the automations config; trying again at the next look',
      }),
    );

    bench.host.addInstallation(unreachable.installationId!, [unreachable.repository]);
    const next = new Map((await loadedConfigs(bench.deps)).map((c) => [c.projectId, c]));
    expect(next.get(unreachable.id)?.automations.map((a) => a.id)).toEqual(['nightly']);
  });
});
