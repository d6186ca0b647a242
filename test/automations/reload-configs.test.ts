import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { findConfig } from '../../src/automations/config-store.js';
import { reloadConfigsOnPush } from '../../src/automations/reload-configs.js';

const CONFIG = `automations:
  - id: nightly
    on: { schedule: "0 3 * * *" }
    prompt: Tidy up.
  - id: bad-cron
    on: { schedule: "61 * * * *" }
    prompt: never loads
`;

describe.each(PROVIDERS)('reloadConfigsOnPush on %s', (provider) => {
  const bench = useAutomations(provider);

  it("reloads the project's config at the commit pushed to its default branch, reporting on the commit that changed it", async () => {
    const project = await bench.project();
    const { after: introduced } = bench.host.commitFiles(
      project.repository,
      'main',
      { '.scribe/automations.yml': CONFIG },
      'Add automations',
    );
    const { after } = bench.host.commitFiles(project.repository, 'main', { 'index.md': '# Docs!\n' }, 'Retitle');
    const said = await reloadConfigsOnPush(bench.deps, {
      repository: project.repository.toUpperCase(),
      branch: 'main',
      defaultBranch: 'main',
      after,
      configCommit: introduced,
    });
    expect(said).toEqual([`config of ${project.id} reloaded (1 loaded, 1 problems)`]);
    expect(await findConfig(bench.deps.db, project.id)).toMatchObject({
      sha: after,
      automations: [{ id: 'nightly' }],
      problems: [{ automation: 'bad-cron', message: 'schedule: invalid value for minute: 61' }],
    });
    const reported = bench.host.statuses.filter((s) => s.repository === project.repository);
    expect(reported).toMatchObject([{ sha: introduced, state: 'failure', context: 'scribe/automations' }]);
  });

  it('reloads nothing for a push to another branch, to a repository with no project, or to a disabled project', async () => {
    const project = await bench.project({ files: { 'index.md': '# Docs\n', '.scribe/automations.yml': CONFIG } });
    const { after } = bench.host.commitFiles(project.repository, 'main', { 'index.md': '# Docs!\n' }, 'Retitle');
    const push = { repository: project.repository, branch: 'main', defaultBranch: 'main', after };
    expect(await reloadConfigsOnPush(bench.deps, { ...push, branch: 'draft' })).toEqual([]);
    expect(await reloadConfigsOnPush(bench.deps, { ...push, repository: 'acme/api' })).toEqual([]);
    await bench.deps.db.project.update({ where: { id: project.id }, data: { disabledAt: bench.clock() } });
    expect(await reloadConfigsOnPush(bench.deps, push)).toEqual([]);
    expect(await findConfig(bench.deps.db, project.id)).toBeNull();
  });
});
