import fs from 'node:fs/promises';
import path from 'node:path';
import {
  edit,
  reply,
  startAnthropicStandIn,
  text,
  toolUse,
  type AnthropicStandIn,
} from '../../support/anthropic-server.js';
import { makeWorkspace, runAgainst, snapshot, toolResultsOf } from '../../support/agent-harness.js';

let standIn: AnthropicStandIn;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
});
afterAll(() => standIn.close());

describe('a model trying to leave the workspace', () => {
  it('gets every escape attempt refused as is_error, and nothing outside changes', async () => {
    const ws = await makeWorkspace({ 'README.md': '# Docs\n' });
    try {
      const outsideDir = path.join(ws.parent, 'outside-dir');
      await fs.mkdir(outsideDir);
      await fs.writeFile(path.join(outsideDir, 'victim.md'), 'victim\n');
      // A repository can contain symlinks; the agent must not follow them out.
      await fs.symlink(ws.outside, path.join(ws.dir, 'link-file.md'));
      await fs.symlink(outsideDir, path.join(ws.dir, 'link-dir'));
      const outsideBefore = await snapshot(ws.parent);
      const attempts = [
        edit({ command: 'create', path: '../escaped.md', file_text: 'pwned' }),
        edit({ command: 'create', path: path.join(ws.parent, 'absolute.md'), file_text: 'pwned' }),
        edit({ command: 'view', path: ws.outside }),
        edit({ command: 'str_replace', path: 'link-file.md', old_str: 'secret', new_str: 'pwned' }),
        edit({ command: 'create', path: 'link-dir/new.md', file_text: 'pwned' }),
        edit({ command: 'insert', path: 'link-dir/victim.md', insert_line: 0, insert_text: 'pwned' }),
        edit({ command: 'create', path: '.git/hooks/post-checkout', file_text: '#!/bin/sh\necho pwned\n' }),
        toolUse('delete_file', { path: 'link-dir/victim.md' }),
        toolUse('move_file', { from: 'README.md', to: '../moved.md' }),
        toolUse('list_files', { pattern: '**/*', path: 'link-dir' }),
        toolUse('search_files', { pattern: 'secret', path: '..' }),
      ];
      standIn.script([reply(attempts), reply([text('Title: Nothing\n\nEverything was refused.')])]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir });
      expect(run.error).toBeUndefined();

      const results = toolResultsOf(standIn.requests[1]);
      expect(results).toHaveLength(attempts.length);
      for (const result of results) expect(result.is_error).toBe(true);
      expect(results.map((r) => r.content).join('\n')).not.toContain('secret outside the workspace');
      expect(
        run.events.filter((e) => e.type === 'tool_call').every((e) => e.type === 'tool_call' && !e.ok && e.error),
      ).toBe(true);

      const outsideAfter = await snapshot(ws.parent);
      expect(outsideAfter).toEqual(outsideBefore);
      expect(await fs.readFile(path.join(ws.dir, '.git/config'), 'utf8')).toBe('[core]\n');
      await expect(fs.access(path.join(ws.dir, '.git/hooks'))).rejects.toThrow();
      expect(await fs.readFile(path.join(ws.dir, 'README.md'), 'utf8')).toBe('# Docs\n');
    } finally {
      await ws.cleanup();
    }
  });
});
