import { withCacheBreakpoints } from '../../src/agent/cache-breakpoints.js';
import { reply, startAnthropicStandIn, text, toolUse } from '../support/anthropic-server.js';
import { makeWorkspace, runAgainst } from '../support/agent-harness.js';

describe('withCacheBreakpoints', () => {
  it('marks the system prompt and the last block of the newest message, leaving the conversation itself alone', () => {
    const messages = [
      { role: 'user' as const, content: 'task' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 't1', name: 'list_files', input: {} }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 't1', content: 'a.md' }] },
    ];
    const copy = structuredClone(messages);
    const marked = withCacheBreakpoints('rules', messages);
    expect(marked.system).toEqual([{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }]);
    expect(marked.messages.slice(0, 2)).toEqual(copy.slice(0, 2));
    expect(marked.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.md', cache_control: { type: 'ephemeral' } }],
    });
    expect(messages).toEqual(copy);
    expect(withCacheBreakpoints('rules', [{ role: 'user', content: 'task' }]).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'task', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('is what the agent sends: one moving breakpoint in the messages on every turn', async () => {
    const standIn = await startAnthropicStandIn();
    const ws = await makeWorkspace({ 'README.md': '# Hi\n' });
    try {
      standIn.script([reply([toolUse('list_files', { pattern: '*' })]), reply([text('Title: Done\n\nNothing.')])]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir });
      expect(run.error).toBeUndefined();
      for (const request of standIn.requests) {
        expect(request.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
        const marked = JSON.stringify(request.body.messages).match(/"cache_control"/g) ?? [];
        expect(marked).toHaveLength(1);
        expect(JSON.stringify(request.body.messages.at(-1))).toContain('cache_control');
      }
    } finally {
      await ws.cleanup();
      await standIn.close();
    }
  });
});
