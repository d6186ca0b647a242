import { createGitHubApp, repositoryUrlFor } from '../../src/github/github-app.js';
import { createProbot } from '../../src/github/create-probot.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';

describe('GitHub App access against a GitHub Enterprise host', () => {
  let host: GitHubHost;
  beforeAll(async () => {
    host = await startGitHubHost();
    host.addInstallation(31, ['acme/docs']);
    host.createRepository('acme/docs', { 'index.md': '# Hi\n' });
  });
  afterAll(async () => {
    await host.close();
  });
  const app = () => {
    const config = loadConfig({
      APP_ID: String(host.app.id),
      PRIVATE_KEY: host.app.privateKey,
      GHE_HOST: host.host,
      GHE_PROTOCOL: 'http',
      SCRIBE_GITHUB_THROTTLE: 'false',
    });
    return createGitHubApp({
      probot: createProbot({ config, logger: createLogger('silent') })!,
      github: config.github,
    });
  };

  it('mints a new installation token each time, authenticated by a JWT the host verifies', async () => {
    const github = app();
    const first = await github.freshToken(31);
    const second = await github.freshToken(31);
    expect(first).not.toBe(second);
    expect(host.tokens.filter((t) => t.installationId === 31).map((t) => t.token)).toEqual(
      expect.arrayContaining([first, second]),
    );
    expect(
      host.calls.filter((c) => c.path === '/app/installations/31/access_tokens').every((c) => c.auth === 'jwt'),
    ).toBe(true);
  });

  it('finds the installation of a repository when the project has none recorded, and says when there is none', async () => {
    const github = app();
    expect(await github.installationFor('acme/docs', null)).toBe(31);
    expect(await github.installationFor('acme/docs', 99)).toBe(99);
    await expect(github.installationFor('acme/other', null)).rejects.toThrow(
      'The GitHub App is not installed on acme/other: install it on that repository',
    );
  });

  it('commits as <slug>[bot] with the bot user’s noreply address, looked up once', async () => {
    const github = app();
    const octokit = await github.octokit(31);
    const identity = await github.botIdentity(octokit);
    expect(identity).toEqual({
      name: 'scribe-docs[bot]',
      email: `${host.app.botUserId}+scribe-docs[bot]@users.noreply.127.0.0.1`,
    });
    const lookups = host.calls.filter((c) => c.path === '/app').length;
    await github.botIdentity(octokit);
    expect(host.calls.filter((c) => c.path === '/app').length).toBe(lookups);
  });

  it('addresses repositories on the configured host, or on github.com', () => {
    expect(app().gitUrl('acme/docs')).toBe(`${host.url}/acme/docs.git`);
    expect(repositoryUrlFor(loadConfig({}).github)('acme/docs')).toBe('https://github.com/acme/docs');
  });
});
