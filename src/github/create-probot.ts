import { Probot, ProbotOctokit } from 'probot';
import { gitHubAppConfigured, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { randomHex } from '../ids.js';

export function githubApiBaseUrl(github: Config['github']): string | undefined {
  return github.host ? `${github.protocol}://${github.host}/api/v3` : undefined;
}

/**
 * The one Probot instance of the process, shared by the webhook middleware and the job worker; null until the
 * GitHub App's id and private key are set.
 */
export function createProbot(params: { config: Config; logger: Logger }): Probot | null {
  const { github } = params.config;
  if (!gitHubAppConfigured(github)) return null;
  return new Probot({
    appId: github.appId,
    privateKey: github.privateKey,
    // Without a configured secret the webhook route answers 503 before Probot sees a request; an unguessable
    // placeholder keeps the instance usable for API calls without ever accepting an unsigned delivery.
    secret: github.webhookSecret ?? randomHex(32),
    baseUrl: githubApiBaseUrl(github),
    log: params.logger.child({ component: 'probot' }) as never,
    // The function form: Probot merges an object shallowly, which would drop the throttle's other settings.
    ...(params.config.jobs.githubThrottle
      ? {}
      : { Octokit: ProbotOctokit.defaults((options: object) => ({ ...options, throttle: { enabled: false } })) }),
  });
}
