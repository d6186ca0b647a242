import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Project } from '../projects/projects.js';
import { statusOf, type GitHubApp } from '../github/github-app.js';
import { gitHubFailure } from '../github/github-failure.js';
import { CONFIG_PATH, parseAutomationsConfig, type ConfigProblem } from './parse-config.js';
import { saveConfig, type LoadedConfig } from './config-store.js';

/** The commit status context a config's problems are reported under. */
export const STATUS_CONTEXT = 'scribe/automations';

/**
 * Reads `.scribe/automations.yml` from the docs repository's default branch (at `sha` when a push names the commit),
 * checks that the App reaches every push and pull_request repository, stores the result, and reports it as a commit status on the
 * commit that last changed the file in the push (`reportOn`; else the commit read): failure with the first problem
 * when an automation did not load, so the author sees it on the commit that introduced it.
 */
export async function loadAutomationsConfig(params: {
  db: Db;
  clock: Clock;
  logger: Logger;
  github: GitHubApp;
  project: Project;
  sha?: string;
  reportOn?: string;
}): Promise<LoadedConfig> {
  const { db, clock, github, project } = params;
  const [owner, repo] = project.repository.split('/');
  const { octokit, text, notAFile, sha } = await readConfigFile(params).catch((err: unknown) => {
    throw gitHubFailure(err, `the docs repository ${project.repository}`);
  });
  const parsed = text === null ? { automations: [], problems: [] } : parseAutomationsConfig(text);
  const problems: ConfigProblem[] = [...parsed.problems];
  if (notAFile) problems.push({ automation: null, message: `${CONFIG_PATH} is not a file` });
  const automations = [];
  for (const automation of parsed.automations) {
    if (automation.on.kind === 'push' || automation.on.kind === 'pull_request') {
      const problem = await unreachable(github, automation.on.repository);
      if (problem) {
        problems.push({ automation: automation.id, message: problem });
        continue;
      }
    }
    automations.push(automation);
  }
  const loaded = await saveConfig({
    db,
    clock,
    projectId: project.id,
    sha: text === null ? null : sha,
    automations,
    problems,
  });
  if (text !== null || problems.length) {
    const state = problems.length ? 'failure' : 'success';
    const first = problems[0]
      ? `${problems[0].automation ? `${problems[0].automation}: ` : ''}${problems[0].message}`
      : '';
    const description = problems.length
      ? `${problems.length} problem${problems.length > 1 ? 's' : ''}: ${first}`
      : `${automations.length} automation${automations.length === 1 ? '' : 's'} loaded`;
    await octokit.rest.repos
      .createCommitStatus({
        owner,
        repo,
        sha: params.reportOn ?? sha!,
        state,
        context: STATUS_CONTEXT,
        description: description.length > 140 ? `${description.slice(0, 139)}…` : description,
      })
      .catch((err: unknown) =>
        params.logger.warn({ err, repository: project.repository }, 'could not report the automations config status'),
      );
  }
  return loaded;
}

/** The file at the pushed commit or the default branch's head: its text (null when absent) and the commit read. */
async function readConfigFile(params: { github: GitHubApp; project: Project; sha?: string }) {
  const { github, project } = params;
  const [owner, repo] = project.repository.split('/');
  const octokit = await github.octokit(await github.installationFor(project.repository, project.installationId));
  const defaultBranch = (await octokit.rest.repos.get({ owner, repo })).data.default_branch;
  let text: string | null = null;
  let notAFile = false;
  try {
    const ref = params.sha ?? defaultBranch;
    const { data } = await octokit.rest.repos.getContent({ owner, repo, path: CONFIG_PATH, ref });
    if (!Array.isArray(data) && data.type === 'file' && 'content' in data)
      text = Buffer.from(data.content, 'base64').toString('utf8');
    else notAFile = true;
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
  }
  const sha =
    params.sha ?? (await octokit.rest.repos.getBranch({ owner, repo, branch: defaultBranch })).data.commit.sha;
  return { octokit, text, notAFile, sha };
}

/** Why a push or pull_request automation's repository cannot trigger it, or null when the App is installed on it. */
async function unreachable(github: GitHubApp, repository: string): Promise<string | null> {
  try {
    await github.installationFor(repository, null);
    return null;
  } catch (err) {
    if (statusOf(err) === 404) return `repository ${repository} is unknown or the GitHub App is not installed on it`;
    throw gitHubFailure(err, `the repository ${repository}`);
  }
}
