import type { LoadedConfig } from '../../src/automations/config-store.js';
import { matchPullRequest } from '../../src/automations/match-pull-request.js';
import type { Automation } from '../../src/automations/parse-config.js';

const automation = (id: string, on: Partial<Automation['on']> & { kind: Automation['on']['kind'] }): Automation =>
  ({ id, on: { repository: 'acme/api', branches: null, paths: null, ...on }, prompt: 'p', draft: false }) as Automation;

const config = (projectId: string, automations: Automation[]): LoadedConfig => ({
  projectId,
  sha: null,
  automations,
  problems: [],
  firstSeen: {},
  loadedAt: new Date(0),
});

describe('matchPullRequest', () => {
  const configs = [
    config('p1', [
      automation('any', { kind: 'pull_request' }),
      automation('src-only', { kind: 'pull_request', paths: ['src/**'] }),
      automation('release', { kind: 'pull_request', branches: ['release'] }),
      automation('a-push', { kind: 'push' }),
    ]),
    config('p2', [
      { ...automation('other-repo', { kind: 'pull_request', repository: 'acme/cli' }) },
      { ...automation('blocking', { kind: 'pull_request' }), review: { comment: true, block: true } },
    ]),
  ];
  const target = { repository: 'Acme/API', baseBranch: 'main', defaultBranch: 'main', changedPaths: ['README.md'] };
  const ids = (found: ReturnType<typeof matchPullRequest>) => found.map((f) => `${f.projectId}/${f.automation.id}`);

  it('matches repository (any case), the default branch when no branches are named, and the paths', () => {
    const found = matchPullRequest(configs, target);
    expect(ids(found)).toEqual(['p1/any', 'p2/blocking']);
    expect(found.map((f) => f.automation.review)).toEqual([
      { comment: false, block: false },
      { comment: true, block: true },
    ]);
    expect(ids(matchPullRequest(configs, { ...target, changedPaths: ['src/cli.ts'] }))).toEqual([
      'p1/any',
      'p1/src-only',
      'p2/blocking',
    ]);
  });

  it('follows the named base branches only, and checks no paths when none are given', () => {
    expect(ids(matchPullRequest(configs, { ...target, baseBranch: 'release', changedPaths: null }))).toEqual([
      'p1/release',
    ]);
    expect(ids(matchPullRequest(configs, { ...target, changedPaths: null }))).toEqual([
      'p1/any',
      'p1/src-only',
      'p2/blocking',
    ]);
    expect(matchPullRequest(configs, { ...target, repository: 'acme/web' })).toEqual([]);
  });
});
