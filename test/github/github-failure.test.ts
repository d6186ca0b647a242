import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import { createProbot } from '../../src/github/create-probot.js';
import { GitHubAppError, type GitHubApp } from '../../src/github/github-app.js';
import { gitHubFailure } from '../../src/github/github-failure.js';
import { Conflict, Unavailable, UpstreamFailed } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';
import { hostGitHubApp } from '../support/host-github-app.js';

const DOCS = 'the docs repository acme/docs';

describe('what a failed GitHub call means for the request', () => {
  let host: GitHubHost;
  let github: GitHubApp;
  beforeAll(async () => {
    host = await startGitHubHost();
    host.createRepository('acme/docs', { 'index.md': '# Docs\n' });
    host.addInstallation(12, ['acme/docs']);
    github = hostGitHubApp(host).github;
  });
  afterAll(async () => {
    await host.close();
  });
  /** what reading the repository throws when GitHub answers it with `status` */
  const answered = async (status: number, message: string) => {
    host.failNext('GET', /^\/repos\/acme\/docs$/, status, message);
    const octokit = await github.octokit(12);
    return octokit.rest.repos.get({ owner: 'acme', repo: 'docs' }).then(
      () => undefined,
      (err: unknown) => err,
    );
  };

  it('a repository GitHub does not show the App is a conflict naming it and the likely cause', async () => {
    const failure = gitHubFailure(await answered(404, 'Not Found'), DOCS);
    expect(failure).toBeInstanceOf(Conflict);
    expect(failure).toMatchObject({
      message: 'The docs repository acme/docs was not found on GitHub (is the GitHub App installed on it?)',
    });
    const notInstalled = await github.installationFor('acme/elsewhere', null).catch((err: unknown) => err);
    expect(notInstalled).toBeInstanceOf(GitHubAppError);
    expect(gitHubFailure(notInstalled, 'the docs repository acme/elsewhere')).toMatchObject({
      message: 'The docs repository acme/elsewhere was not found on GitHub (is the GitHub App installed on it?)',
    });
  });

  it('access refused is a conflict, refused credentials a missing configuration, a rate limit a GitHub failure', async () => {
    const refused = gitHubFailure(await answered(403, 'Resource not accessible by integration'), DOCS);
    expect(refused).toBeInstanceOf(Conflict);
    expect((refused as Error).message).toBe(
      'GitHub refused the GitHub App access to the docs repository acme/docs (403: Resource not accessible by integration): check that the App is installed on it with Contents: read',
    );
    // an App whose private key GitHub does not know
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { config } = hostGitHubApp(host, {
      PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const stranger = await createProbot({ config, logger: createLogger('silent') })!.auth();
    const credentials = gitHubFailure(await stranger.rest.apps.getAuthenticated().catch((err: unknown) => err), DOCS);
    expect(credentials).toBeInstanceOf(Unavailable);
    expect((credentials as Error).message).toBe(
      "GitHub refused the GitHub App's credentials (401: A JSON web token could not be decoded): check APP_ID and PRIVATE_KEY",
    );
    const limited = gitHubFailure(await answered(403, 'API rate limit exceeded for installation ID 12.'), DOCS);
    expect(limited).toBeInstanceOf(UpstreamFailed);
    expect((limited as Error).message).toBe(
      'GitHub answered 403 while reading the docs repository acme/docs (API rate limit exceeded for installation ID 12.); try again later',
    );
    expect(gitHubFailure(await answered(451, 'Repository access blocked'), DOCS)).toMatchObject({
      constructor: UpstreamFailed,
      message:
        'GitHub answered 451 while reading the docs repository acme/docs (Repository access blocked); try again later',
    });
  });

  it('a GitHub that cannot be reached is a GitHub failure naming the network error', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const { config } = hostGitHubApp({ ...host, host: `127.0.0.1:${closed}` });
    const app = await createProbot({ config, logger: createLogger('silent') })!.auth();
    const unreachable = await app.rest.apps.getAuthenticated({ request: { retries: 0 } }).catch((err: unknown) => err);
    const failure = gitHubFailure(unreachable, DOCS);
    expect(failure).toBeInstanceOf(UpstreamFailed);
    expect((failure as Error).message).toBe(
      'GitHub could not be reached while reading the docs repository acme/docs (ECONNREFUSED); try again later',
    );
  });

  it('leaves errors that are not GitHub answers as they are', () => {
    const database = new Error('connection to the database lost');
    expect(gitHubFailure(database, DOCS)).toBe(database);
    const domain = new Conflict('already typed');
    expect(gitHubFailure(domain, DOCS)).toBe(domain);
  });
});
