import type { Probot, ProbotOctokit } from 'probot';
import type { Config } from '../config.js';
import type { CommitIdentity } from '../git/workspace.js';

export type InstallationOctokit = ProbotOctokit;

/** The bot user commits are attributed to. */
export type BotIdentity = CommitIdentity;

/** What a job needs from GitHub, as the App: addresses, installation clients and tokens, the bot identity. */
export interface GitHubApp {
  /** web address of a repository, e.g. https://github.acme.com/owner/name */
  repositoryUrl(repository: string): string;
  /** smart-HTTP git address of a repository */
  gitUrl(repository: string): string;
  /** the installation that can reach the repository: the project's, else the one GitHub reports for it */
  installationFor(repository: string, known: number | null): Promise<number>;
  octokit(installationId: number): Promise<InstallationOctokit>;
  /** a newly minted installation token: they live one hour, and a job can outlive a cached one */
  freshToken(installationId: number): Promise<string>;
  /** `installation` looks up the bot user: app (JWT) credentials only reach the /app routes */
  botIdentity(installation: InstallationOctokit): Promise<BotIdentity>;
}

export class GitHubAppError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export function githubWebBase(github: Config['github']): string {
  return github.host ? `${github.protocol}://${github.host}` : 'https://github.com';
}

/** Repository web addresses need no App: the API's job objects use this even when GitHub is not configured. */
export function repositoryUrlFor(github: Config['github']): (repository: string) => string {
  const base = githubWebBase(github);
  return (repository) => `${base}/${repository}`;
}

export function createGitHubApp(params: { probot: Probot; github: Config['github'] }): GitHubApp {
  const { probot, github } = params;
  const base = githubWebBase(github);
  const hostName = github.host ? github.host.replace(/:\d+$/, '') : 'github.com';
  let identity: Promise<BotIdentity> | undefined;

  return {
    repositoryUrl: repositoryUrlFor(github),
    gitUrl: (repository) => `${base}/${repository}.git`,

    async installationFor(repository, known) {
      if (known) return known;
      const [owner, repo] = repository.split('/');
      const app = await probot.auth();
      try {
        const { data } = await app.rest.apps.getRepoInstallation({ owner, repo });
        return data.id;
      } catch (err) {
        if (statusOf(err) === 404)
          throw new GitHubAppError(
            `The GitHub App is not installed on ${repository}: install it on that repository`,
            404,
          );
        throw err;
      }
    },

    octokit: (installationId) => probot.auth(installationId),

    async freshToken(installationId) {
      // Minted directly through the REST route rather than taken from Probot's token cache, which may hand out a
      // token minutes from expiry.
      const app = await probot.auth();
      const { data } = await app.rest.apps.createInstallationAccessToken({ installation_id: installationId });
      return data.token;
    },

    botIdentity(installation) {
      identity ??= (async () => {
        const app = await probot.auth();
        const { data } = await app.rest.apps
          .getAuthenticated()
          .catch(lookupFailed("the GitHub App's own details (GET /app)", 'check APP_ID and PRIVATE_KEY'));
        const slug = data?.slug ?? 'scribe';
        const login = `${slug}[bot]`;
        const { data: user } = await installation.rest.users
          .getByUsername({ username: login })
          .catch(
            lookupFailed(
              `the App's bot user (GET /users/${login})`,
              'commits are attributed to that user; check that the App exists on this GitHub host under that slug',
            ),
          );
        // GitHub attributes commits to the bot through its noreply address: <user id>+<login>@users.noreply.<host>.
        return { name: login, email: `${user.id}+${login}@users.noreply.${hostName}` };
      })();
      identity.catch(() => {
        identity = undefined;
      });
      return identity;
    },
  };
}

/**
 * A failed lookup as a GitHubAppError that names the request, so a job fails saying what GitHub refused rather
 * than suggesting the repository is out of reach.
 */
function lookupFailed(what: string, hint: string): (err: unknown) => never {
  return (err) => {
    const status = statusOf(err);
    const message = ((err as Error)?.message ?? String(err)).slice(0, 200);
    throw new GitHubAppError(
      `Could not look up ${what}: GitHub answered ${status ?? 'with an error'} (${message}); ${hint}`,
      status,
    );
  };
}

export function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' ? status : undefined;
}
