import fs from 'node:fs';
import path from 'node:path';
import { branchName } from '../../src/git/branch-name.js';
import {
  classifyGitOutput,
  cloneRepository,
  commitAll,
  createWorkspaceDir,
  type GitFailure,
  pushBranch,
  remoteBranchExists,
  removeWorkspace,
} from '../../src/git/workspace.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';

const identity = { name: 'scribe-docs[bot]', email: '900001+scribe-docs[bot]@users.noreply.127.0.0.1' };

describe('branchName', () => {
  it('is scribe/<short id>-<slug> and always a plain ref', () => {
    expect(branchName('job_AbCdEfGhIjKlMnOpQrSt', 'Document the new `--dry-run` flag!')).toBe(
      'scribe/abcdefgh-document-the-new-dry-run-flag',
    );
    expect(branchName('job_AbCdEfGhIjKlMnOpQrSt', 'Éditer la page d’accueil')).toBe(
      'scribe/abcdefgh-editer-la-page-d-accueil',
    );
    expect(branchName('job_AbCdEfGhIjKlMnOpQrSt', '!!!')).toBe('scribe/abcdefgh');
    expect(branchName('job_x', 'a'.repeat(200)).length).toBeLessThanOrEqual('scribe/x-'.length + 40);
  });
});

describe('workspace over smart HTTP', () => {
  let host: GitHubHost;
  let token: string;
  const repository = 'acme/docs';
  const url = () => `${host.url}/${repository}.git`;

  beforeAll(async () => {
    host = await startGitHubHost();
    host.addInstallation(7, [repository]);
    host.createRepository(repository, {
      'docs.json': '{"navigation":[]}\n',
      'index.mdx': '# Home\n',
      'guide/start.md': '# Start\n',
    });
    token = 'ghs_test_token';
    host.tokens.push({ token, installationId: 7, issuedAt: Date.now() });
  });
  afterAll(async () => {
    await host.close();
  });

  it('clones shallow, commits as the bot, pushes a new branch; the token stays out of .git/config', async () => {
    const dir = await createWorkspaceDir();
    try {
      expect(await remoteBranchExists({ url: url(), branch: 'scribe/one', token })).toBe(false);
      await cloneRepository({ url: url(), ref: 'main', dir, token, identity });
      expect(fs.readFileSync(path.join(dir, 'index.mdx'), 'utf8')).toBe('# Home\n');
      expect(fs.existsSync(path.join(dir, '.git', 'shallow'))).toBe(true);
      expect(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8')).not.toContain(token);
      expect(await commitAll({ dir, message: 'nothing' })).toBeNull();
      fs.writeFileSync(path.join(dir, 'index.mdx'), '# Home\n\nWelcome.\n');
      const sha = await commitAll({ dir, message: 'Add a welcome line' });
      expect(sha).toMatch(/^[0-9a-f]{7,40}$/);
      await pushBranch({ dir, url: url(), branch: 'scribe/one', token });
      expect(await remoteBranchExists({ url: url(), branch: 'scribe/one', token })).toBe(true);
      expect(host.readFile(repository, 'scribe/one', 'index.mdx')).toBe('# Home\n\nWelcome.\n');
      expect(host.log(repository, 'scribe/one')[0].sha.startsWith(sha!)).toBe(true);
      expect(host.log(repository, 'scribe/one')[0]).toMatchObject({
        author: identity.name,
        email: identity.email,
        subject: 'Add a welcome line',
      });
    } finally {
      await removeWorkspace(dir);
    }
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('reports a missing branch, a token without access and a protected branch as distinct failures', async () => {
    const dir = await createWorkspaceDir();
    try {
      await expect(cloneRepository({ url: url(), ref: 'nope', dir, token, identity })).rejects.toMatchObject({
        kind: 'not_found',
      });
      await expect(
        cloneRepository({ url: url(), ref: 'main', dir: `${dir}/b`, token: 'ghs_unknown', identity }),
      ).rejects.toMatchObject({ kind: 'auth' });
      const failure = await cloneRepository({
        url: url(),
        ref: 'main',
        dir: `${dir}/c`,
        token: 'ghs_unknown',
        identity,
      }).catch((e: GitFailure) => e);
      expect(String((failure as GitFailure).message)).not.toContain('ghs_unknown');
      host.protectBranches(repository, 'scribe/*');
      await cloneRepository({ url: url(), ref: 'main', dir: `${dir}/d`, token, identity });
      fs.writeFileSync(path.join(dir, 'd', 'new.md'), '# New\n');
      await commitAll({ dir: `${dir}/d`, message: 'new page' });
      await expect(pushBranch({ dir: `${dir}/d`, url: url(), branch: 'scribe/two', token })).rejects.toMatchObject({
        kind: 'rejected',
      });
      expect(host.branches(repository)).not.toContain('scribe/two');
    } finally {
      await removeWorkspace(dir);
    }
  });

  describe('classifyGitOutput', () => {
    // What git prints for a push refused by a pre-receive hook, on a stand-in whose port and sha contain 401 and 403:
    // a bare /403/ once read this as a missing permission, so the test failed whenever the OS picked such a port.
    const rejectedPush = [
      'remote: error: GH006: Protected branch update failed for refs/heads/scribe/add-4031.',
      'To http://127.0.0.1:40321/acme/locked.git',
      ' ! [remote rejected] scribe/add-4031 -> scribe/add-4031 (pre-receive hook declined)',
      "error: failed to push some refs to 'http://127.0.0.1:40321/acme/locked.git'",
    ].join('\n');

    it('reads a rejected push as rejected even when its ports and refs contain 401 or 403', () => {
      expect(classifyGitOutput(rejectedPush).kind).toBe('rejected');
      expect(classifyGitOutput(rejectedPush.replace(/40321/g, '34013')).kind).toBe('rejected');
    });

    it('reads the HTTP status git prints, not any 401 or 403 in the text, as an auth failure', () => {
      expect(
        classifyGitOutput(
          "fatal: unable to access 'http://127.0.0.1:40321/acme/docs.git/': The requested URL returned error: 403",
        ).kind,
      ).toBe('auth');
      expect(classifyGitOutput("fatal: Authentication failed for 'http://127.0.0.1:1234/acme/docs.git/'").kind).toBe(
        'auth',
      );
      expect(
        classifyGitOutput("fatal: unable to access 'http://127.0.0.1:40321/acme/docs.git/': Failed to connect").kind,
      ).toBe('other');
      expect(classifyGitOutput("fatal: couldn't find remote ref refs/heads/v4013").kind).toBe('not_found');
    });
  });
});
