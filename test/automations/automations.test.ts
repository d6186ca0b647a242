import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { createAutomations } from '../../src/automations/automations.js';
import type { FeedbackReader } from '../../src/automations/on-feedback.js';

describe.each(PROVIDERS)('createAutomations on %s', (provider) => {
  const bench = useAutomations(provider);

  it('reloads the config a push brings before matching the push against the automations it declares', async () => {
    const automations = createAutomations({ ...bench.deps, feedback: {} as FeedbackReader });
    const project = await bench.project();
    const config = `automations:\n  - id: guides\n    on:\n      push:\n        repository: ${project.repository}\n        paths: ["guides/**"]\n    prompt: Link the new guide from the index.\n`;
    const { before, after } = bench.host.commitFiles(
      project.repository,
      'main',
      { '.scribe/automations.yml': config, 'guides/start.md': '# Start\n' },
      'Add a guide and an automation for guides',
    );
    const said = await automations.onPush({
      repository: project.repository,
      branch: 'main',
      defaultBranch: 'main',
      before,
      after,
      configCommit: after,
    });
    expect(said).toMatch(
      new RegExp(
        `^config of ${project.id} reloaded \\(1 loaded, 0 problems\\); guides: run arun_\\w+ running \\(job job_\\w+\\)$`,
      ),
    );
    expect((await automations.runs({ projectId: project.id, limit: 10, offset: 0 })).total).toBe(1);
  });
});
