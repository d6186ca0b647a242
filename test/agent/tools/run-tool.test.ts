import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_FILE_SIZE_LIMITS } from '../../../src/agent/resolve-workspace-path.js';
import { agentTools, runTool } from '../../../src/agent/tools/run-tool.js';
import type { ToolContext } from '../../../src/agent/tools/tool-context.js';
import { makeWorkspace, snapshot } from '../../support/agent-harness.js';

let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let context: ToolContext;

const FILES = {
  'README.md': 'line one\nline two\nline three\n',
  'docs/a.md': '# A\n\nSee the [guide](guide.md).\nrepeat\nrepeat\n',
  'docs/guide.md': '# Guide\n\nHello World\n',
  'docs/deep/er/page.mdx': 'deep\n',
  '.hidden/secret.md': 'hidden\n',
  'node_modules/pkg/readme.md': 'dependency\n',
  'image.bin': 'abc\0def',
};

beforeEach(async () => {
  ws = await makeWorkspace(FILES);
  context = { workspaceDir: ws.dir, sizeLimits: DEFAULT_FILE_SIZE_LIMITS, originals: new Map() };
});
afterEach(() => ws.cleanup());

const call = (name: string, input: Record<string, unknown>) => runTool({ name, input }, context);
const editor = (input: Record<string, unknown>) => call('str_replace_based_edit_tool', input);
const read = (file: string) => fs.readFile(path.join(ws.dir, file), 'utf8');

describe('tool definitions', () => {
  it('offers the text editor tool and four custom tools with JSON schemas', () => {
    expect(agentTools[0]).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
    for (const tool of agentTools.slice(1)) {
      expect(tool).toMatchObject({
        name: expect.any(String),
        description: expect.any(String),
        input_schema: { type: 'object', properties: expect.any(Object) },
      });
      expect(JSON.stringify(tool)).not.toContain('$schema');
    }
  });
});

describe('text editor: view', () => {
  it('shows a file with line numbers, and a range of it', async () => {
    const all = await editor({ command: 'view', path: 'README.md' });
    expect(all).toEqual({
      ok: true,
      command: 'view',
      path: 'README.md',
      content: '     1\tline one\n     2\tline two\n     3\tline three\n     4\t',
    });
    const range = await editor({ command: 'view', path: 'README.md', view_range: [2, 3] });
    expect(range.content).toBe('     2\tline two\n     3\tline three');
    const toEnd = await editor({ command: 'view', path: 'README.md', view_range: [3, -1] });
    expect(toEnd.content).toBe('     3\tline three\n     4\t');
  });

  it('lists a directory two levels deep without hidden items or node_modules', async () => {
    const result = await editor({ command: 'view', path: '.' });
    expect(result.ok).toBe(true);
    const listed = result.content.split('\n').slice(1);
    expect(listed).toEqual(['README.md', 'docs/', 'image.bin', 'docs/a.md', 'docs/deep/', 'docs/guide.md']);
  });

  it('reports missing files, bad ranges and binary files as errors', async () => {
    expect(await editor({ command: 'view', path: 'nope.md' })).toMatchObject({
      ok: false,
      content: 'nope.md does not exist.',
    });
    expect(await editor({ command: 'view', path: 'README.md', view_range: [3, 99] })).toMatchObject({
      ok: false,
      content: expect.stringContaining('Invalid view_range'),
    });
    expect(await editor({ command: 'view', path: 'image.bin' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('binary file'),
    });
  });
});

describe('text editor: create, str_replace, insert', () => {
  it('creates files (with parent directories) and overwrites existing ones, remembering originals', async () => {
    expect(await editor({ command: 'create', path: 'docs/new/page.md', file_text: '# New\n' })).toMatchObject({
      ok: true,
      path: 'docs/new/page.md',
      content: 'Created docs/new/page.md.',
    });
    expect(await read('docs/new/page.md')).toBe('# New\n');
    expect(await editor({ command: 'create', path: 'README.md', file_text: 'replaced\n' })).toMatchObject({
      ok: true,
      content: 'Overwrote README.md.',
    });
    expect(await read('README.md')).toBe('replaced\n');
    expect(context.originals).toEqual(
      new Map([
        ['docs/new/page.md', null],
        ['README.md', FILES['README.md']],
      ]),
    );
  });

  it('refuses to create over a directory or above the write limit', async () => {
    expect(await editor({ command: 'create', path: 'docs', file_text: 'x' })).toMatchObject({
      ok: false,
      content: 'docs is a directory.',
    });
    context.sizeLimits = { maxReadBytes: 1000, maxWriteBytes: 10 };
    expect(await editor({ command: 'create', path: 'big.md', file_text: 'x'.repeat(11) })).toMatchObject({
      ok: false,
      content: expect.stringContaining('write limit'),
    });
    await expect(fs.access(path.join(ws.dir, 'big.md'))).rejects.toThrow();
  });

  it('replaces exactly one match', async () => {
    expect(
      await editor({ command: 'str_replace', path: 'docs/guide.md', old_str: 'Hello World', new_str: 'Hello, world' }),
    ).toMatchObject({ ok: true, path: 'docs/guide.md' });
    expect(await read('docs/guide.md')).toBe('# Guide\n\nHello, world\n');
    expect(
      await editor({ command: 'str_replace', path: 'docs/guide.md', old_str: '\n\nHello, world\n' }),
    ).toMatchObject({ ok: true });
    expect(await read('docs/guide.md')).toBe('# Guide');
  });

  it('matches across Windows line endings, keeping them', async () => {
    await fs.writeFile(path.join(ws.dir, 'crlf.md'), '# Title\r\n\r\nOld line\r\nNext\r\n');
    expect(
      await editor({ command: 'str_replace', path: 'crlf.md', old_str: 'Old line\nNext', new_str: 'New line\nNext' }),
    ).toMatchObject({ ok: true });
    expect(await read('crlf.md')).toBe('# Title\r\n\r\nNew line\r\nNext\r\n');
  });

  it('fails without changing the file when old_str matches zero or several times', async () => {
    const none = await editor({ command: 'str_replace', path: 'docs/a.md', old_str: 'absent', new_str: 'x' });
    expect(none).toMatchObject({ ok: false, content: expect.stringContaining('No match for old_str') });
    const many = await editor({ command: 'str_replace', path: 'docs/a.md', old_str: 'repeat', new_str: 'x' });
    expect(many).toMatchObject({ ok: false, content: expect.stringContaining('matches 2 places') });
    expect(await read('docs/a.md')).toBe(FILES['docs/a.md']);
    expect(context.originals.size).toBe(0);
    expect(await editor({ command: 'str_replace', path: 'missing.md', old_str: 'a', new_str: 'b' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('does not exist'),
    });
  });

  it('inserts after a line (0 = top), accepting insert_text or new_str', async () => {
    expect(await editor({ command: 'insert', path: 'README.md', insert_line: 0, insert_text: 'top' })).toMatchObject({
      ok: true,
    });
    expect(
      await editor({ command: 'insert', path: 'README.md', insert_line: 2, new_str: 'after one\nand more' }),
    ).toMatchObject({ ok: true });
    expect(await read('README.md')).toBe('top\nline one\nafter one\nand more\nline two\nline three\n');
    expect(await editor({ command: 'insert', path: 'README.md', insert_line: 99, insert_text: 'x' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('past the end'),
    });
    expect(await editor({ command: 'insert', path: 'README.md', insert_line: 1 })).toMatchObject({
      ok: false,
      content: 'insert_text is required.',
    });
  });

  it('rejects unsupported commands and malformed input as errors', async () => {
    expect(await editor({ command: 'undo_edit', path: 'README.md' })).toMatchObject({
      ok: false,
      command: 'undo_edit',
      content: expect.stringContaining('Unsupported command'),
    });
    expect(await editor({ command: 'create', path: 'x.md' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('file_text'),
    });
    expect(await call('rm_rf', {})).toMatchObject({ ok: false, content: 'Unknown tool "rm_rf".' });
  });

  it('refuses paths outside the workspace and inside .git for every command', async () => {
    const before = await snapshot(ws.dir);
    for (const p of ['../outside.txt', ws.outside, '.git/config']) {
      expect(await editor({ command: 'view', path: p })).toMatchObject({ ok: false });
      expect(await editor({ command: 'create', path: p, file_text: 'pwned' })).toMatchObject({ ok: false });
      expect(await editor({ command: 'str_replace', path: p, old_str: 'secret', new_str: 'pwned' })).toMatchObject({
        ok: false,
      });
      expect(await editor({ command: 'insert', path: p, insert_line: 0, insert_text: 'pwned' })).toMatchObject({
        ok: false,
      });
    }
    expect(await fs.readFile(ws.outside, 'utf8')).toBe('secret outside the workspace\n');
    expect(await fs.readFile(path.join(ws.dir, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(await snapshot(ws.dir)).toEqual(before);
  });
});

describe('list_files', () => {
  it('lists files matching a glob, never .git or node_modules', async () => {
    expect((await call('list_files', { pattern: '**/*.md' })).content.split('\n')).toEqual([
      '.hidden/secret.md',
      'README.md',
      'docs/a.md',
      'docs/guide.md',
    ]);
    expect((await call('list_files', { pattern: '**/*.mdx', path: 'docs' })).content).toBe('docs/deep/er/page.mdx');
    expect((await call('list_files', { pattern: '**/config' })).content).toBe('No files match **/config.');
    expect(await call('list_files', { pattern: '*', path: '..' })).toMatchObject({ ok: false });
  });
});

describe('search_files', () => {
  it('finds regex matches with file and line', async () => {
    const result = await call('search_files', { pattern: 'h[ae]llo', case_insensitive: true });
    expect(result).toMatchObject({ ok: true, content: 'docs/guide.md:3: Hello World' });
    expect((await call('search_files', { pattern: '^repeat$', glob: 'docs/*.md' })).content).toBe(
      'docs/a.md:4: repeat\ndocs/a.md:5: repeat',
    );
    expect((await call('search_files', { pattern: 'dependency' })).content).toBe('No matches for /dependency/.');
  });

  it('reports invalid and runaway regular expressions as errors', async () => {
    expect(await call('search_files', { pattern: '(' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('Invalid regular expression'),
    });
    await fs.writeFile(path.join(ws.dir, 'docs/evil.md'), `${'a'.repeat(40)}b\n`);
    expect(await call('search_files', { pattern: '^(a+)+$' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('took longer than'),
    });
  });
});

describe('delete_file and move_file', () => {
  it('deletes a file and remembers its content', async () => {
    expect(await call('delete_file', { path: 'docs/guide.md' })).toMatchObject({ ok: true, path: 'docs/guide.md' });
    await expect(fs.access(path.join(ws.dir, 'docs/guide.md'))).rejects.toThrow();
    expect(context.originals.get('docs/guide.md')).toBe(FILES['docs/guide.md']);
    expect(await call('delete_file', { path: 'docs/guide.md' })).toMatchObject({
      ok: false,
      content: 'docs/guide.md does not exist.',
    });
    expect(await call('delete_file', { path: 'docs' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('is a directory'),
    });
    expect(await call('delete_file', { path: '.git/config' })).toMatchObject({ ok: false });
    expect(await call('delete_file', { path: '../outside.txt' })).toMatchObject({ ok: false });
    await expect(fs.access(ws.outside)).resolves.toBeUndefined();
  });

  it('moves a file into a new directory, refusing to overwrite or leave the workspace', async () => {
    expect(await call('move_file', { from: 'docs/guide.md', to: 'guides/setup.md' })).toMatchObject({
      ok: true,
      path: 'docs/guide.md -> guides/setup.md',
    });
    expect(await read('guides/setup.md')).toBe(FILES['docs/guide.md']);
    expect(context.originals).toEqual(
      new Map([
        ['docs/guide.md', FILES['docs/guide.md']],
        ['guides/setup.md', null],
      ]),
    );
    expect(await call('move_file', { from: 'README.md', to: 'docs/a.md' })).toMatchObject({
      ok: false,
      content: expect.stringContaining('already exists'),
    });
    expect(await call('move_file', { from: 'README.md', to: '../stolen.md' })).toMatchObject({
      ok: false,
      path: 'README.md -> ../stolen.md',
    });
    expect(await call('move_file', { from: 'README.md', to: '.git/README.md' })).toMatchObject({ ok: false });
    await expect(fs.access(path.join(ws.parent, 'stolen.md'))).rejects.toThrow();
    expect(await read('README.md')).toBe(FILES['README.md']);
  });
});
