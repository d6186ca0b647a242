import { globProblem, parseAutomationsConfig } from '../../src/automations/parse-config.js';

describe('parseAutomationsConfig', () => {
  it('loads push and schedule automations with their defaults', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: api-changes
    on:
      push:
        repository: acme/api
        branches: [main, release]
        paths: ["src/**", "openapi.yaml"]
    prompt: |
      Update the docs.
    draft: true
  - id: weekly-links
    on:
      schedule: "0 6 * * 1"
    prompt: Fix links.
`);
    expect(problems).toEqual([]);
    expect(automations).toEqual([
      { id: 'api-changes', on: { kind: 'push', repository: 'acme/api', branches: ['main', 'release'], paths: ['src/**', 'openapi.yaml'] }, prompt: 'Update the docs.', draft: true },
      { id: 'weekly-links', on: { kind: 'schedule', cron: '0 6 * * 1' }, prompt: 'Fix links.', draft: false },
    ]);
  });

  it('leaves out each bad automation with its problems and keeps the good ones', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: good
    on: { schedule: "0 * * * *" }
    prompt: ok
  - id: Bad_Id
    on: { schedule: "0 * * * *" }
    prompt: ok
  - id: good
    on: { schedule: "0 * * * *" }
    prompt: twice
  - id: both
    on: { schedule: "0 * * * *", push: { repository: acme/api } }
    prompt: ok
  - id: globs
    on: { push: { repository: acme/api, paths: ["src/[a", "../x", "/abs"], extra: 1 } }
    prompt: ok
  - id: no-prompt
    on: { schedule: "0 * * * *" }
  - "a string"
`);
    expect(automations.map((a) => a.id)).toEqual(['good']);
    expect(problems).toEqual([
      { automation: 'Bad_Id', message: 'id must match [a-z0-9-]{1,64}' },
      { automation: 'good', message: 'id "good" is used twice' },
      { automation: 'both', message: '"on" must have exactly one of "push" or "schedule"' },
      { automation: 'globs', message: 'on.push: unknown key "extra" (allowed: repository, branches, paths)' },
      { automation: 'globs', message: expect.stringMatching(/^on.push.paths: path pattern "src\/\[a" is not a valid glob/) },
      { automation: 'globs', message: 'on.push.paths: path pattern "../x" must not contain ".."' },
      { automation: 'globs', message: 'on.push.paths: path pattern "/abs" must be relative to the repository root' },
      { automation: 'no-prompt', message: 'prompt must be a non-empty string' },
      { automation: '#7', message: 'each automation must be a mapping' },
    ]);
  });

  it('reports a file that is not YAML, or not a list of automations, as a problem of the whole file', () => {
    expect(parseAutomationsConfig('automations: [').problems[0]).toMatchObject({ automation: null, message: expect.stringMatching(/is not valid YAML/) });
    expect(parseAutomationsConfig('- id: x').problems).toEqual([{ automation: null, message: '.scribe/automations.yml must be a mapping with an "automations" list' }]);
    expect(parseAutomationsConfig('automations: []\nextra: 1').problems).toEqual([{ automation: null, message: '.scribe/automations.yml: unknown key "extra" (allowed: automations)' }]);
    expect(parseAutomationsConfig('')).toEqual({ automations: [], problems: [] });
  });

  it('checks globs strictly', () => {
    expect(globProblem('src/**/*.{ts,tsx}')).toBeNull();
    expect(globProblem('')).toBe('a path pattern must be a non-empty string');
    expect(globProblem('docs/[abc')).toMatch(/not a valid glob/);
  });
});
