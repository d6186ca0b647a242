import { PROBLEM_KINDS } from '../../src/problems/problem-kinds.js';
import {
  MAX_MIN_READERS,
  MAX_THUMBS_DOWN,
  PROBLEM_KIND_NAMES,
  globProblem,
  pageGlobProblem,
  parseAutomationsConfig,
} from '../../src/automations/parse-config.js';

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
      {
        id: 'api-changes',
        on: { kind: 'push', repository: 'acme/api', branches: ['main', 'release'], paths: ['src/**', 'openapi.yaml'] },
        prompt: 'Update the docs.',
        draft: true,
      },
      {
        id: 'weekly-links',
        on: { kind: 'schedule', cron: '0 6 * * 1', timezone: 'UTC' },
        prompt: 'Fix links.',
        draft: false,
      },
    ]);
  });

  it('reads a schedule in the time zone beside it, and refuses a bad zone, expression or misplaced zone', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: paris
    prompt: ok
    on: { schedule: "@weekly" }
    timezone: Europe/Paris
  - id: nowhere
    prompt: ok
    on: { schedule: "0 6 * * 1" }
    timezone: Mars/Olympus
  - id: blank
    prompt: ok
    on: { schedule: "0 6 * * 1" }
    timezone: 3
  - id: bad-cron
    prompt: ok
    on: { schedule: "0 25 * * *" }
  - id: six
    prompt: ok
    on: { schedule: "0 0 6 * * 1" }
  - id: not-schedule
    prompt: ok
    on: { feedback: { comment: true } }
    timezone: UTC
`);
    expect(automations).toEqual([
      { id: 'paris', on: { kind: 'schedule', cron: '@weekly', timezone: 'Europe/Paris' }, prompt: 'ok', draft: false },
    ]);
    expect(problems).toEqual([
      {
        automation: 'nowhere',
        message: 'timezone "Mars/Olympus" is not an IANA time zone name (such as "Europe/Paris" or "UTC")',
      },
      { automation: 'blank', message: 'timezone must be an IANA name such as "Europe/Paris"' },
      { automation: 'bad-cron', message: 'schedule: invalid value for hour: 25' },
      { automation: 'six', message: expect.stringMatching(/^schedule: mode '5-part' requires exactly 5 parts/) },
      { automation: 'not-schedule', message: 'timezone applies to schedule automations only' },
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
      {
        automation: 'both',
        message: '"on" must have exactly one of "push", "schedule", "feedback", "pull_request" or "problems"',
      },
      { automation: 'globs', message: 'on.push: unknown key "extra" (allowed: repository, branches, paths)' },
      {
        automation: 'globs',
        message: expect.stringMatching(/^on.push.paths: path pattern "src\/\[a" is not a valid glob/),
      },
      { automation: 'globs', message: 'on.push.paths: path pattern "../x" must not contain ".."' },
      { automation: 'globs', message: 'on.push.paths: path pattern "/abs" must be relative to the repository root' },
      { automation: 'no-prompt', message: 'prompt must be a non-empty string' },
      { automation: '#7', message: 'each automation must be a mapping' },
    ]);
  });

  it('loads feedback automations: a thumbs-down threshold, comments, pages', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: reader-feedback
    on:
      feedback:
        thumbsDown: 3
        comment: true
        pages: ["/guides/**", "/reference/*.mdx"]
    prompt: Improve the pages readers are unhappy with.
  - id: thumbs-only
    on: { feedback: { thumbsDown: 1 } }
    prompt: Fix it.
  - id: comments-only
    on: { feedback: { comment: true } }
    prompt: Read the comments.
`);
    expect(problems).toEqual([]);
    expect(automations.map((a) => a.on)).toEqual([
      { kind: 'feedback', thumbsDown: 3, comment: true, pages: ['/guides/**', '/reference/*.mdx'] },
      { kind: 'feedback', thumbsDown: 1, comment: false, pages: null },
      { kind: 'feedback', thumbsDown: null, comment: true, pages: null },
    ]);
  });

  it('loads problems automations: a kind of the queue and the readers it takes', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: redirects
    on:
      problems: { kind: missing-page, minReaders: 20 }
    prompt: Redirect what readers cannot find.
  - id: any-gap
    on: { problems: { kind: search-gap } }
    prompt: Answer what readers search for.
`);
    expect(problems).toEqual([]);
    expect(automations.map((a) => a.on)).toEqual([
      { kind: 'problems', problemKind: 'missing-page', minReaders: 20 },
      { kind: 'problems', problemKind: 'search-gap', minReaders: 1 },
    ]);
    // the kinds a config may name are the queue's
    expect([...PROBLEM_KIND_NAMES]).toEqual([...PROBLEM_KINDS]);
  });

  it('leaves out problems automations with an unknown kind, a bad threshold or unknown keys', () => {
    const entry = (id: string, value: string) => `  - id: ${id}\n    on: { problems: ${value} }\n    prompt: ok\n`;
    const { automations, problems } = parseAutomationsConfig(
      'automations:\n' +
        entry('good', '{ kind: stale-page, minReaders: 1 }') +
        entry('typo', '{ kind: missing-pages }') +
        entry('zero', '{ kind: missing-page, minReaders: 0 }') +
        entry('huge', `{ kind: missing-page, minReaders: ${MAX_MIN_READERS + 1} }`) +
        entry('text', '{ kind: missing-page, minReaders: "20" }') +
        entry('extra', '{ kind: missing-page, maxReaders: 5 }') +
        entry('not-a-map', 'missing-page'),
    );
    expect(automations.map((a) => a.id)).toEqual(['good']);
    const kinds = 'missing-page, negative-feedback, search-gap, stale-page';
    expect(problems).toEqual([
      { automation: 'typo', message: `on.problems.kind must be one of ${kinds}` },
      { automation: 'zero', message: `on.problems.minReaders must be a whole number from 1 to ${MAX_MIN_READERS}` },
      { automation: 'huge', message: `on.problems.minReaders must be a whole number from 1 to ${MAX_MIN_READERS}` },
      { automation: 'text', message: `on.problems.minReaders must be a whole number from 1 to ${MAX_MIN_READERS}` },
      { automation: 'extra', message: 'on.problems: unknown key "maxReaders" (allowed: kind, minReaders)' },
      { automation: 'not-a-map', message: 'on.problems must be a mapping with "kind" and "minReaders"' },
    ]);
  });

  it('leaves out feedback automations with unknown keys, bad thresholds, bad page globs or nothing to trigger them', () => {
    const entry = (id: string, feedback: string) =>
      `  - id: ${id}\n    on: { feedback: ${feedback} }\n    prompt: ok\n`;
    const { automations, problems } = parseAutomationsConfig(
      'automations:\n' +
        entry('good', '{ thumbsDown: 2 }') +
        entry('zero', '{ thumbsDown: 0 }') +
        entry('fraction', '{ thumbsDown: 2.5 }') +
        entry('text', '{ thumbsDown: "3" }') +
        entry('huge', `{ thumbsDown: ${MAX_THUMBS_DOWN + 1} }`) +
        entry('nothing', '{ comment: false }') +
        entry('empty', '{}') +
        entry('not-a-map', 'true') +
        entry('yes-string', '{ comment: "yes" }') +
        entry('extra', '{ thumbsDown: 1, thumbsUp: 2 }') +
        entry('pages', '{ comment: true, pages: ["guides/**", "/a/../b", "/x/[a"] }') +
        entry('no-pages', '{ comment: true, pages: [] }') +
        '  - id: two\n    on: { feedback: { comment: true }, schedule: "0 * * * *" }\n    prompt: ok\n',
    );
    expect(automations.map((a) => a.id)).toEqual(['good']);
    expect(problems).toEqual([
      { automation: 'zero', message: `on.feedback.thumbsDown must be a whole number from 1 to ${MAX_THUMBS_DOWN}` },
      { automation: 'fraction', message: `on.feedback.thumbsDown must be a whole number from 1 to ${MAX_THUMBS_DOWN}` },
      { automation: 'text', message: `on.feedback.thumbsDown must be a whole number from 1 to ${MAX_THUMBS_DOWN}` },
      { automation: 'huge', message: `on.feedback.thumbsDown must be a whole number from 1 to ${MAX_THUMBS_DOWN}` },
      {
        automation: 'nothing',
        message: 'on.feedback needs "thumbsDown: <n>" or "comment: true", or nothing would trigger it',
      },
      {
        automation: 'empty',
        message: 'on.feedback needs "thumbsDown: <n>" or "comment: true", or nothing would trigger it',
      },
      { automation: 'not-a-map', message: 'on.feedback must be a mapping with "thumbsDown" and/or "comment"' },
      { automation: 'yes-string', message: 'on.feedback.comment must be true or false' },
      {
        automation: 'yes-string',
        message: 'on.feedback needs "thumbsDown: <n>" or "comment: true", or nothing would trigger it',
      },
      { automation: 'extra', message: 'on.feedback: unknown key "thumbsUp" (allowed: thumbsDown, comment, pages)' },
      {
        automation: 'pages',
        message: 'on.feedback.pages: page pattern "guides/**" must start with "/" (page paths do, e.g. "/guides/**")',
      },
      { automation: 'pages', message: 'on.feedback.pages: page pattern "/a/../b" must not contain ".."' },
      {
        automation: 'pages',
        message: expect.stringMatching(/^on.feedback.pages: page pattern "\/x\/\[a" is not a valid glob/),
      },
      { automation: 'no-pages', message: 'on.feedback.pages must be a non-empty list of strings' },
      {
        automation: 'two',
        message: '"on" must have exactly one of "push", "schedule", "feedback", "pull_request" or "problems"',
      },
    ]);
    expect(pageGlobProblem('/guides/**/*.{md,mdx}')).toBeNull();
  });

  it('loads pull_request automations with their review options and defaults', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: review-api-prs
    on:
      pull_request:
        repository: acme/api
        branches: [main]
        paths: ["src/**", "cli/**"]
    prompt: Keep the CLI and API reference pages true to the code.
    review:
      comment: true
      block: false
  - id: plain
    on: { pull_request: { repository: acme/cli } }
    prompt: ok
`);
    expect(problems).toEqual([]);
    expect(automations).toEqual([
      {
        id: 'review-api-prs',
        on: { kind: 'pull_request', repository: 'acme/api', branches: ['main'], paths: ['src/**', 'cli/**'] },
        prompt: 'Keep the CLI and API reference pages true to the code.',
        draft: false,
        review: { comment: true, block: false },
      },
      {
        id: 'plain',
        on: { kind: 'pull_request', repository: 'acme/cli', branches: null, paths: null },
        prompt: 'ok',
        draft: false,
        review: { comment: false, block: false },
      },
    ]);
  });

  it('reads outcome options on any automation, and leaves out one whose outcome options are wrong', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: quiet
    on: { schedule: "0 6 * * 1" }
    prompt: ok
    outcome: { comment: false }
  - id: loud
    on: { problems: { kind: missing-page } }
    prompt: ok
    outcome: {}
  - id: plain
    on: { schedule: "0 6 * * 1" }
    prompt: ok
  - id: bad
    on: { schedule: "0 6 * * 1" }
    prompt: ok
    outcome: { comment: "no", mute: true }
  - id: worse
    on: { schedule: "0 6 * * 1" }
    prompt: ok
    outcome: false
`);
    expect(automations.map((a) => [a.id, a.outcome])).toEqual([
      ['quiet', { comment: false }],
      ['loud', { comment: true }],
      ['plain', undefined],
    ]);
    expect(problems).toEqual([
      { automation: 'bad', message: 'outcome: unknown key "mute" (allowed: comment)' },
      { automation: 'bad', message: 'outcome.comment must be true or false' },
      { automation: 'worse', message: 'outcome must be a mapping with "comment"' },
    ]);
  });

  it('leaves out pull_request automations with unknown keys, bad globs, bad repositories or bad review options', () => {
    const { automations, problems } = parseAutomationsConfig(`automations:
  - id: keys
    on: { pull_request: { repository: acme/api, base: main } }
    prompt: ok
  - id: globs
    on: { pull_request: { repository: acme/api, paths: ["src/[a", "../x"] } }
    prompt: ok
  - id: repo
    on: { pull_request: { repository: "not a repo", branches: [] } }
    prompt: ok
  - id: review
    on: { pull_request: { repository: acme/api } }
    prompt: ok
    review: { comment: "yes", block: 1, silent: true }
  - id: review-on-push
    on: { push: { repository: acme/api } }
    prompt: ok
    review: { comment: true }
  - id: not-a-mapping
    on: { pull_request: acme/api }
    prompt: ok
  - id: good
    on: { pull_request: { repository: acme/api } }
    prompt: ok
    review: { block: true }
`);
    expect(automations.map((a) => [a.id, a.review])).toEqual([['good', { comment: false, block: true }]]);
    const named = { pullRequestRepository: 'acme/api' };
    expect(problems).toEqual([
      {
        automation: 'keys',
        message: 'on.pull_request: unknown key "base" (allowed: repository, branches, paths)',
        ...named,
      },
      {
        automation: 'globs',
        message: expect.stringMatching(/^on\.pull_request\.paths: path pattern "src\/\[a" is not a valid glob/),
        ...named,
      },
      { automation: 'globs', message: 'on.pull_request.paths: path pattern "../x" must not contain ".."', ...named },
      { automation: 'repo', message: 'on.pull_request.repository must be owner/name' },
      { automation: 'repo', message: 'on.pull_request.branches must be a non-empty list of strings' },
      { automation: 'review', message: 'review: unknown key "silent" (allowed: comment, block)', ...named },
      { automation: 'review', message: 'review.comment must be true or false', ...named },
      { automation: 'review', message: 'review.block must be true or false', ...named },
      { automation: 'review-on-push', message: 'review applies to pull_request automations only' },
      { automation: 'not-a-mapping', message: 'on.pull_request must be a mapping with "repository"' },
    ]);
  });

  it('reports a file that is not YAML, or not a list of automations, as a problem of the whole file', () => {
    expect(parseAutomationsConfig('automations: [').problems[0]).toMatchObject({
      automation: null,
      message: expect.stringMatching(/is not valid YAML/),
    });
    expect(parseAutomationsConfig('- id: x').problems).toEqual([
      { automation: null, message: '.scribe/automations.yml must be a mapping with an "automations" list' },
    ]);
    expect(parseAutomationsConfig('automations: []\nextra: 1').problems).toEqual([
      { automation: null, message: '.scribe/automations.yml: unknown key "extra" (allowed: automations)' },
    ]);
    expect(parseAutomationsConfig('')).toEqual({ automations: [], problems: [] });
  });

  it('checks globs strictly', () => {
    expect(globProblem('src/**/*.{ts,tsx}')).toBeNull();
    expect(globProblem('')).toBe('a path pattern must be a non-empty string');
    expect(globProblem('docs/[abc')).toMatch(/not a valid glob/);
  });
});
