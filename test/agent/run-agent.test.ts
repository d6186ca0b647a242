import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../src/agent/run-agent.js';
import { edit, overloaded, reply, startAnthropicStandIn, text, toolUse, type AnthropicStandIn } from '../support/anthropic-server.js';
import { makeWorkspace, runAgainst, snapshot, toolResultsOf } from './agent-harness.js';

let standIn: AnthropicStandIn;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const FILES = {
  'docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }, null, 2),
  'index.mdx': '---\ntitle: Welcome\n---\n\n# Welcome\n\nAcme is a tool for teh people.\n\nSee [setup](/guides/setup).\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it.\n',
};

describe('runAgent against the scripted Anthropic stand-in', () => {
  it('applies an edit script and produces exactly the intended change', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      const before = await snapshot(ws.dir);
      standIn.script([
        reply([text('Let me look.'), edit({ command: 'view', path: 'index.mdx' })]),
        reply([edit({ command: 'str_replace', path: 'index.mdx', old_str: 'teh people', new_str: 'the people' })]),
        reply([text('Title: Fix typo in the introduction\n\nCorrected "teh" to "the" on the welcome page.')]),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir });
      expect(run.error).toBeUndefined();
      const after = await snapshot(ws.dir);
      expect(after).toEqual({ ...before, 'index.mdx': before['index.mdx'].replace('teh people', 'the people') });
      expect(run.result).toEqual({
        title: 'Fix typo in the introduction',
        summary: 'Corrected "teh" to "the" on the welcome page.',
        usage: { inputTokens: 300, outputTokens: 150 },
        turns: 3,
      });
      // The view result went back to the model as a tool_result with line numbers.
      const [viewResult] = toolResultsOf(standIn.requests[1]);
      expect(viewResult.is_error).toBeUndefined();
      expect(viewResult.content).toContain('7\tAcme is a tool for teh people.');
      expect(run.events.filter((e) => e.type === 'turn')).toHaveLength(3);
      expect(run.events).toContainEqual({ type: 'tool_call', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'index.mdx', ok: true });
      expect(run.events).toContainEqual({ type: 'check', problems: [] });
      // The SDK really sent the tools and the system prompt.
      const first = standIn.requests[0].body;
      expect(first.tools[0]).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
      expect(first.tools.map((t: any) => t.name)).toEqual(['str_replace_based_edit_tool', 'list_files', 'search_files', 'delete_file', 'move_file']);
      expect(first.system).toContain('Docs framework: mintlify (config: docs.json)');
      expect(first.model).toBe('claude-test');
    } finally {
      await ws.cleanup();
    }
  });

  it('maps a persistent 529 to AgentError overloaded after the SDK retries', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      standIn.script([overloaded(3, { retryAfterMs: 5 })]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir });
      expect(run.error).toBeInstanceOf(AgentError);
      expect((run.error as AgentError).reason).toBe('overloaded');
      expect((run.error as AgentError).message).toBe('The model was overloaded (HTTP 529) after 3 attempts; try again later.');
      expect(standIn.requests).toHaveLength(3);
      expect(run.events.at(-1)).toEqual({ type: 'error', message: (run.error as Error).message });
    } finally {
      await ws.cleanup();
    }
  });
});
