import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { listMessages } from '../../src/jobs/job-store.js';
import type { Project } from '../../src/projects/projects.js';
import type { Automation } from '../../src/automations/parse-config.js';
import { startPushRuns, type Push } from '../../src/automations/on-push.js';

describe.each(PROVIDERS)('startPushRuns on %s', (provider) => {
  const bench = useAutomations(provider);
  let sources = 0;

  /** A docs project whose push automation `api-docs` follows a new source repository's main branch, on `src/**`. */
  async function followed(): Promise<{ project: Project; source: string }> {
    const source = `acme/api-${++sources}`;
    bench.host.createRepository(source, { 'src/cli.ts': 'export const flags = [];\n', 'README.md': '# api\n' });
    const project = await bench.project({ also: [source] });
    const automation: Automation = {
      id: 'api-docs',
      on: { kind: 'push', repository: source, branches: null, paths: ['src/**'] },
      prompt: 'Document the code changes below.',
      draft: false,
    };
    await bench.loadAutomations(project, [automation]);
    return { project, source };
  }
  const push = (source: string, files: Record<string, string>, message: string): Push => ({
    repository: source,
    branch: 'main',
    defaultBranch: 'main',
    ...bench.host.commitFiles(source, 'main', files, message),
  });

  it('starts a run of the automation following the pushed repository and branch, with the change for the agent', async () => {
    const { project, source } = await followed();
    const pushed = push(source, { 'src/cli.ts': "export const flags = ['--verbose'];\n" }, 'Add --verbose flag');
    const said = await startPushRuns(bench.deps, pushed);
    expect(said).toEqual([expect.stringMatching(/^api-docs: run arun_\w+ running \(job job_\w+\)$/)]);
    const [run] = await bench.deps.db.automationRun.findMany({ where: { projectId: project.id } });
    expect(run).toMatchObject({
      trigger: 'push',
      dedupeKey: `push:${source}:main:${pushed.after}`,
      repository: source,
      beforeSha: pushed.before,
      afterSha: pushed.after,
      summary: expect.stringContaining(pushed.after.slice(0, 7)),
    });
    const [message] = await listMessages(bench.deps.db, run.jobId!);
    expect(message.prompt).toMatch(/^Document the code changes below\.\n\n/);
    expect(message.prompt).toContain('Add --verbose flag');
    expect(message.prompt).toContain("+export const flags = ['--verbose'];");

    // a redelivery, or the same push seen by another process
    expect(await startPushRuns(bench.deps, pushed)).toEqual(['api-docs: this push already started a run']);
    expect(await bench.deps.db.automationRun.count({ where: { projectId: project.id } })).toBe(1);
  });

  it('starts nothing when no changed file matches the paths', async () => {
    const { project, source } = await followed();
    const said = await startPushRuns(bench.deps, push(source, { 'README.md': '# api\n\nMore.\n' }, 'Readme only'));
    expect(said).toEqual(['api-docs: no changed file matches its paths']);
    expect(await bench.deps.db.automationRun.count({ where: { projectId: project.id } })).toBe(0);
  });

  it('says so when no automation follows the push: another branch than it follows, another repository', async () => {
    const { source } = await followed();
    const pushed = push(source, { 'src/cli.ts': 'export {};\n' }, 'Change');
    const before = bench.host.calls.length;
    expect(await startPushRuns(bench.deps, { ...pushed, branch: 'feature' })).toEqual([
      'no automation follows this push',
    ]);
    expect(await startPushRuns(bench.deps, { ...pushed, repository: 'acme/elsewhere' })).toEqual([
      'no automation follows this push',
    ]);
    // nothing to start, so GitHub is not asked for the change
    expect(bench.host.calls.length).toBe(before);
  });

  it("starts nothing for a disabled project's automation", async () => {
    const { project, source } = await followed();
    await bench.deps.db.project.update({ where: { id: project.id }, data: { disabledAt: bench.clock() } });
    expect(await startPushRuns(bench.deps, push(source, { 'src/cli.ts': 'export {};\n' }, 'Change'))).toEqual([]);
    expect(await bench.deps.db.automationRun.count({ where: { projectId: project.id } })).toBe(0);
  });
});
