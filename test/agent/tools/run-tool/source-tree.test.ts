import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTool } from '../../../../src/agent/tools/run-tool.js';
import { DEFAULT_FILE_SIZE_LIMITS } from '../../../../src/agent/resolve-workspace-path.js';
import type { ToolContext } from '../../../../src/agent/tools/tool-context.js';

const EDITOR = 'str_replace_based_edit_tool';

describe('the read-only source tree behind source: paths', () => {
  let docs: string;
  let source: string;
  let context: ToolContext;
  beforeEach(() => {
    docs = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-docs-'));
    source = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-source-'));
    fs.writeFileSync(path.join(docs, 'index.md'), '# Docs\n');
    fs.mkdirSync(path.join(source, 'src'));
    fs.writeFileSync(path.join(source, 'src', 'cli.ts'), 'export const verbose = true;\n');
    fs.writeFileSync(path.join(path.dirname(source), 'outside-secret.txt'), 'secret');
    context = { workspaceDir: docs, sourceDir: source, sizeLimits: DEFAULT_FILE_SIZE_LIMITS, originals: new Map() };
  });
  afterEach(() => {
    fs.rmSync(docs, { recursive: true, force: true });
    fs.rmSync(source, { recursive: true, force: true });
    fs.rmSync(path.join(path.dirname(source), 'outside-secret.txt'), { force: true });
  });

  it('lists, searches and views the source tree, naming paths with the prefix', async () => {
    expect(
      await runTool({ name: EDITOR, input: { command: 'view', path: 'source:src/cli.ts' } }, context),
    ).toMatchObject({ ok: true, content: expect.stringContaining('export const verbose'), path: 'source:src/cli.ts' });
    expect(await runTool({ name: 'list_files', input: { pattern: '**/*', path: 'source:' } }, context)).toMatchObject({
      ok: true,
      content: 'src/cli.ts',
    });
    expect(
      await runTool({ name: 'search_files', input: { pattern: 'verbose', path: 'source:src' } }, context),
    ).toMatchObject({ ok: true, content: expect.stringContaining('cli.ts:1:') });
    // the docs tree is untouched by the prefix: plain paths still name it
    expect(await runTool({ name: EDITOR, input: { command: 'view', path: 'index.md' } }, context)).toMatchObject({
      ok: true,
      content: expect.stringContaining('# Docs'),
    });
  });

  it.each([
    [EDITOR, { command: 'create', path: 'source:src/new.ts', file_text: 'x' }],
    [EDITOR, { command: 'str_replace', path: 'source:src/cli.ts', old_str: 'true', new_str: 'false' }],
    [EDITOR, { command: 'insert', path: 'source:src/cli.ts', insert_line: 0, insert_text: 'x' }],
    ['delete_file', { path: 'source:src/cli.ts' }],
    ['move_file', { from: 'source:src/cli.ts', to: 'moved.ts' }],
    ['move_file', { from: 'index.md', to: 'source:src/index.md' }],
  ])('refuses %s %j and changes nothing', async (name, input) => {
    const result = await runTool({ name, input }, context);
    expect(result).toMatchObject({ ok: false, content: expect.stringContaining('The source repository is read-only') });
    expect(fs.readFileSync(path.join(source, 'src', 'cli.ts'), 'utf8')).toBe('export const verbose = true;\n');
    expect(fs.readdirSync(path.join(source, 'src'))).toEqual(['cli.ts']);
    expect(fs.existsSync(path.join(docs, 'index.md'))).toBe(true);
    expect(context.originals.size).toBe(0);
  });

  it('keeps reads inside the source tree through the same path function', async () => {
    const escaped = await runTool(
      { name: EDITOR, input: { command: 'view', path: 'source:../outside-secret.txt' } },
      context,
    );
    expect(escaped).toMatchObject({ ok: false, content: expect.stringContaining('outside the repository') });
    fs.mkdirSync(path.join(source, '.git'));
    fs.writeFileSync(path.join(source, '.git', 'config'), '[core]');
    expect(
      await runTool({ name: EDITOR, input: { command: 'view', path: 'source:.git/config' } }, context),
    ).toMatchObject({ ok: false, content: expect.stringContaining('inside .git') });
  });

  it('names nothing when the run has no source repository', async () => {
    const result = await runTool(
      { name: EDITOR, input: { command: 'view', path: 'source:src/cli.ts' } },
      { ...context, sourceDir: undefined },
    );
    expect(result).toMatchObject({
      ok: false,
      content: expect.stringContaining('There is no source repository in this run'),
    });
  });
});
