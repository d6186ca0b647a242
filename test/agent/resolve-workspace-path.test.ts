import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveWorkspacePath, WorkspacePathError } from '../../src/agent/resolve-workspace-path.js';
import { makeWorkspace } from '../support/agent-harness.js';

let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let outsideDir: string;

beforeAll(async () => {
  ws = await makeWorkspace({ 'docs/intro.md': '# Intro\n', 'big.md': 'x'.repeat(2000) });
  outsideDir = path.join(ws.parent, 'elsewhere');
  await fs.mkdir(outsideDir);
  await fs.writeFile(path.join(outsideDir, 'page.md'), 'outside page\n');
  await fs.symlink(ws.outside, path.join(ws.dir, 'leak.md'));
  await fs.symlink(outsideDir, path.join(ws.dir, 'linked-dir'));
  await fs.symlink(path.join(ws.dir, 'docs', 'intro.md'), path.join(ws.dir, 'alias.md'));
  await fs.symlink(path.join(ws.dir, 'docs'), path.join(ws.dir, 'docs-alias'));
  await fs.symlink(path.join(ws.parent, 'missing-target'), path.join(ws.dir, 'dangling.md'));
  await fs.symlink(path.join(ws.dir, '.git'), path.join(ws.dir, 'gitlink'));
});
afterAll(() => ws.cleanup());

const refused = (requested: string, options = {}) =>
  expect(resolveWorkspacePath(ws.dir, requested, options)).rejects.toBeInstanceOf(WorkspacePathError);

describe('resolveWorkspacePath', () => {
  it('resolves relative and absolute paths inside the workspace', async () => {
    const real = await fs.realpath(ws.dir);
    await expect(resolveWorkspacePath(ws.dir, 'docs/intro.md')).resolves.toEqual({
      absolute: path.join(real, 'docs/intro.md'),
      relative: 'docs/intro.md',
      exists: true,
    });
    await expect(resolveWorkspacePath(ws.dir, path.join(ws.dir, 'docs/intro.md'))).resolves.toMatchObject({
      relative: 'docs/intro.md',
      exists: true,
    });
    await expect(resolveWorkspacePath(ws.dir, './docs/./new/deeper/page.md')).resolves.toEqual({
      absolute: path.join(real, 'docs/new/deeper/page.md'),
      relative: 'docs/new/deeper/page.md',
      exists: false,
    });
    await expect(resolveWorkspacePath(ws.dir, 'docs/../docs/intro.md')).resolves.toMatchObject({
      relative: 'docs/intro.md',
    });
  });

  it('refuses .. escapes and absolute paths outside', async () => {
    await refused('../outside.txt');
    await refused('docs/../../outside.txt');
    await refused('..');
    await refused(ws.outside);
    await refused('/etc/passwd');
    await refused(path.join(ws.dir, '..', 'outside.txt'));
  });

  it('refuses symlinks (file and directory) that point outside, including new files below a linked directory', async () => {
    await refused('leak.md');
    await refused('linked-dir');
    await refused('linked-dir/page.md');
    await refused('linked-dir/new-file.md');
    await refused('linked-dir/new/dir/file.md');
    await refused('dangling.md');
  });

  it('refuses paths through a file and symlink loops', async () => {
    await expect(resolveWorkspacePath(ws.dir, 'docs/intro.md/child.md')).rejects.toThrow(
      /parent of this path is a file/,
    );
    await fs.symlink('loop-b', path.join(ws.dir, 'loop-a'));
    await fs.symlink('loop-a', path.join(ws.dir, 'loop-b'));
    await expect(resolveWorkspacePath(ws.dir, 'loop-a/x.md')).rejects.toThrow(/symbolic links/);
  });

  it('follows symlinks that stay inside to their real target', async () => {
    await expect(resolveWorkspacePath(ws.dir, 'alias.md')).resolves.toMatchObject({
      relative: 'docs/intro.md',
      exists: true,
    });
    await expect(resolveWorkspacePath(ws.dir, 'docs-alias/new.md')).resolves.toMatchObject({
      relative: 'docs/new.md',
      exists: false,
    });
  });

  it('refuses anything under .git, however it is spelled', async () => {
    await refused('.git');
    await refused('.git/config');
    await refused('.git/hooks/pre-commit');
    await refused('docs/../.git/HEAD');
    await refused('.GIT/config');
    await refused('gitlink/config');
    await refused('docs/.git/config');
  });

  it('refuses empty paths, NUL bytes and (unless allowed) the root itself', async () => {
    await refused('');
    await refused('   ');
    await refused('docs/intro.md\0.txt');
    await refused('.');
    await expect(resolveWorkspacePath(ws.dir, '.', { allowRoot: true })).resolves.toMatchObject({
      relative: '',
      exists: true,
    });
  });

  it('enforces the read and write size limits', async () => {
    const limits = { maxReadBytes: 1000, maxWriteBytes: 100 };
    await expect(resolveWorkspacePath(ws.dir, 'big.md', { read: true, limits })).rejects.toThrow(
      /2000 bytes, above the 1000-byte read limit/,
    );
    await expect(resolveWorkspacePath(ws.dir, 'docs/intro.md', { read: true, limits })).resolves.toMatchObject({
      exists: true,
    });
    await expect(resolveWorkspacePath(ws.dir, 'new.md', { writeBytes: 101, limits })).rejects.toThrow(
      /101 bytes .* 100-byte write limit/,
    );
    await expect(resolveWorkspacePath(ws.dir, 'new.md', { writeBytes: 100, limits })).resolves.toMatchObject({
      exists: false,
    });
    // The defaults allow ordinary pages.
    await expect(resolveWorkspacePath(ws.dir, 'big.md', { read: true })).resolves.toMatchObject({ exists: true });
  });
});
