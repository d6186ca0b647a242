import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createProbot } from '../../src/github/create-probot.js';
import { createGitHubApp, type GitHubApp } from '../../src/github/github-app.js';
import type { GitHubHost } from './github-host.js';

/** The config and the App client of a Scribe wired to the local GitHub host, unthrottled; `env` adds settings. */
export function hostGitHubApp(
  host: GitHubHost,
  env: Record<string, string> = {},
): { config: Config; github: GitHubApp } {
  const config = loadConfig({
    APP_ID: String(host.app.id),
    PRIVATE_KEY: host.app.privateKey,
    GHE_HOST: host.host,
    GHE_PROTOCOL: 'http',
    SCRIBE_GITHUB_THROTTLE: 'false',
    ...env,
  });
  const github = createGitHubApp({
    probot: createProbot({ config, logger: createLogger('silent') })!,
    github: config.github,
  });
  return { config, github };
}
