import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { addProject, type Project } from '../../src/projects/projects.js';
import { saveConfig } from '../../src/automations/config-store.js';
import type { Automation } from '../../src/automations/parse-config.js';
import type { AutomationDeps } from '../../src/automations/automation-deps.js';
import { useTestDatabase, type Provider } from './databases.js';
import { startGitHubHost, type GitHubHost } from './github-host.js';
import { hostGitHubApp } from './host-github-app.js';
import { fixedClock, type TestClock } from './clock.js';

const INSTALLATION = 64;

export interface AutomationsBench {
  /** what the trigger modules are given in the service: the App on the local GitHub host, real job requests */
  readonly deps: AutomationDeps;
  readonly host: GitHubHost;
  readonly clock: TestClock;
  /** what the deps' logger wrote, one object a line */
  readonly logs: { level: number; msg: string; [field: string]: unknown }[];
  /** a project for a new docs repository on the host, with the App installed on it (and on `also`) */
  project(params?: { files?: Record<string, string>; also?: string[] }): Promise<Project>;
  /** stores these automations as the project's loaded config, as a read of its default branch would */
  loadAutomations(project: Project, automations: Automation[]): Promise<void>;
}

/**
 * The automations' own modules against a throwaway database of `provider` and the local GitHub host, for the
 * enclosing `describe`. Jobs are asked for through the real job requests; no worker runs them. Read the fields inside
 * tests and hooks.
 */
export function useAutomations(provider: Provider, options: { runsPerDay?: number } = {}): AutomationsBench {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');
  const logs: AutomationsBench['logs'] = [];
  let host: GitHubHost | undefined;
  let deps: AutomationDeps | undefined;
  let repositories = 0;
  beforeAll(async () => {
    host = await startGitHubHost();
    const { config, github } = hostGitHubApp(host);
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
          done();
        },
      }),
    );
    deps = {
      db: database.db,
      database: database.target,
      clock,
      logger,
      github,
      jobs: createJobRequests({ db: database.db, clock, jobs: config.jobs, missing: [], wake: () => undefined }),
      runsPerDay: options.runsPerDay ?? 50,
    };
  });
  afterAll(async () => {
    await host?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (!value) throw new Error('useAutomations: the bench exists only inside tests and hooks');
    return value;
  };
  return {
    get deps() {
      return ready(deps);
    },
    get host() {
      return ready(host);
    },
    clock,
    logs,
    async project(params = {}) {
      const repository = `acme/docs-${++repositories}`;
      ready(host).createRepository(repository, params.files ?? { 'index.md': '# Docs\n' });
      ready(host).addInstallation(INSTALLATION + repositories, [repository, ...(params.also ?? [])]);
      return addProject({
        db: database.db,
        clock,
        repository,
        ref: 'main',
        installationId: INSTALLATION + repositories,
      });
    },
    async loadAutomations(project, automations) {
      await saveConfig({ db: database.db, clock, projectId: project.id, sha: null, automations, problems: [] });
    },
  };
}
