import fs from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../src/agent/run-agent.js';
import {
  edit,
  overloaded,
  reply,
  startAnthropicStandIn,
  text,
  toolUse,
  type AnthropicStandIn,
} from '../support/anthropic-server.js';
import { makeWorkspace, messageText, runAgainst, snapshot, systemOf, toolResultsOf } from '../support/agent-harness.js';

let standIn: AnthropicStandIn;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const FILES = {
  'docs.json': JSON.stringify(
    { name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } },
    null,
    2,
  ),
  'index.mdx':
    '---\ntitle: Welcome\n---\n\n# Welcome\n\nAcme is a tool for teh people.\n\nSee [setup](/guides/setup).\n',
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
      expect(run.events).toContainEqual({
        type: 'tool_call',
        tool: 'str_replace_based_edit_tool',
        command: 'str_replace',
        path: 'index.mdx',
        ok: true,
      });
      expect(run.events).toContainEqual({ type: 'check', problems: [] });
      // The SDK really sent the tools and the system prompt.
      const first = standIn.requests[0].body;
      expect(first.tools[0]).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
      expect(first.tools.map((t: any) => t.name)).toEqual([
        'str_replace_based_edit_tool',
        'list_files',
        'search_files',
        'delete_file',
        'move_file',
      ]);
      expect(systemOf(standIn.requests[0])).toContain('Docs framework: mintlify (config: docs.json)');
      expect(first.model).toBe('claude-test');
    } finally {
      await ws.cleanup();
    }
  });

  it('streams when the per-turn output limit is too large for a plain request, with the same outcome', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      standIn.script([
        reply([text('Fixing.'), edit({ command: 'str_replace', path: 'index.mdx', old_str: 'teh', new_str: 'the' })], {
          usage: { input_tokens: 10, output_tokens: 20 },
        }),
        reply([text('Title: Fix typo\n\nFixed it.')], { usage: { input_tokens: 30, output_tokens: 5 } }),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxOutputTokensPerTurn: 32_000 } });
      expect(run.error).toBeUndefined();
      expect(standIn.requests.map((r) => [r.body.stream, r.body.max_tokens])).toEqual([
        [true, 32_000],
        [true, 32_000],
      ]);
      expect(run.result).toEqual({
        title: 'Fix typo',
        summary: 'Fixed it.',
        usage: { inputTokens: 40, outputTokens: 25 },
        turns: 2,
      });
      expect(await fs.readFile(path.join(ws.dir, 'index.mdx'), 'utf8')).toContain('for the people');
      expect(toolResultsOf(standIn.requests[1])).toEqual([
        { type: 'tool_result', tool_use_id: expect.any(String), content: 'Replaced one occurrence in index.mdx.' },
      ]);
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
      expect((run.error as AgentError).message).toBe(
        'The model was overloaded (HTTP 529) after 3 attempts; try again later.',
      );
      expect(standIn.requests).toHaveLength(3);
      expect(run.events.at(-1)).toEqual({ type: 'error', message: (run.error as Error).message });
    } finally {
      await ws.cleanup();
    }
  });
});

describe('runAgent: no-op, follow-ups and repairs', () => {
  it('finishes without touching files when the model decides nothing needs to change', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      const before = await snapshot(ws.dir);
      standIn.script([
        reply([toolUse('search_files', { pattern: 'pricing' })]),
        reply([text('The docs never mention pricing, so there is nothing to update.')]),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir, instructions: ['Update the pricing page.'] });
      expect(run.error).toBeUndefined();
      expect(await snapshot(ws.dir)).toEqual(before);
      expect(run.result).toMatchObject({
        title: 'The docs never mention pricing, so there is nothing to update',
        turns: 2,
      });
      expect(toolResultsOf(standIn.requests[1])).toEqual([
        { type: 'tool_result', tool_use_id: expect.any(String), content: 'No matches for /pricing/.' },
      ]);
      expect(run.events.some((e) => e.type === 'check')).toBe(false);
    } finally {
      await ws.cleanup();
    }
  });

  it('cuts very long tool output so one result cannot flood the context window', async () => {
    const ws = await makeWorkspace({ ...FILES, 'big.md': `${'word '.repeat(20)}\n`.repeat(1000) });
    try {
      standIn.script([
        reply([edit({ command: 'view', path: 'big.md' })]),
        reply([text('Title: Read it\n\nNothing to change.')]),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir });
      expect(run.error).toBeUndefined();
      const [result] = toolResultsOf(standIn.requests[1]);
      expect(result.content.length).toBeLessThan(61_000);
      expect(result.content).toMatch(/\(output cut at 60000 characters; view a smaller range or narrow the search\)$/);
    } finally {
      await ws.cleanup();
    }
  });

  it('sends earlier instructions, context and repository instructions to the model', async () => {
    const ws = await makeWorkspace({ ...FILES, 'AGENTS.md': 'Write in British English.\n' });
    try {
      standIn.script([reply([text('Title: Nothing to do\n\nNo change needed.')])]);
      const run = await runAgainst({
        standIn,
        workspaceDir: ws.dir,
        instructions: ['Add a FAQ.', 'Rename it to Questions.'],
        context: 'PR comment on index.mdx:7',
      });
      expect(run.error).toBeUndefined();
      const [request] = standIn.requests;
      expect(request.body.messages).toHaveLength(1);
      const task = messageText(request, 0);
      expect(task).toContain('<instruction number="1">\nAdd a FAQ.\n</instruction>');
      expect(task).toContain('<context>\nPR comment on index.mdx:7\n</context>');
      expect(task).toMatch(/Your task:\n<task>\nRename it to Questions.\n<\/task>$/);
      expect(systemOf(request)).toContain('<repository_data source="AGENTS.md">\nWrite in British English.\n');
      expect(request.body.max_tokens).toBe(8192);
      expect(request.headers.authorization ?? request.headers['x-api-key']).toBeTruthy();
    } finally {
      await ws.cleanup();
    }
  });

  it('feeds a broken link back to the model for a repair round, then finishes once it is fixed', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      standIn.script([
        reply([
          edit({
            command: 'create',
            path: 'guides/faq.mdx',
            file_text: '---\ntitle: FAQ\n---\n\nSee [install](/guides/install).\n',
          }),
        ]),
        reply([text('Title: Add FAQ\n\nAdded a FAQ page.')]),
        reply([
          edit({
            command: 'str_replace',
            path: 'guides/faq.mdx',
            old_str: '/guides/install',
            new_str: '/guides/setup',
          }),
        ]),
        reply([text('Title: Add FAQ page\n\nAdded a FAQ page linking to setup.')]),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir, instructions: ['Add a FAQ page.'] });
      expect(run.error).toBeUndefined();
      const checks = run.events.filter((e) => e.type === 'check');
      expect(checks).toEqual([
        {
          type: 'check',
          problems: ['guides/faq.mdx:5: the link "/guides/install" points at a file that does not exist.'],
        },
        { type: 'check', problems: [] },
      ]);
      const repairRequest = standIn.requests[2].body.messages.at(-1);
      expect(repairRequest.role).toBe('user');
      expect(messageText(standIn.requests[2], -1)).toContain(
        'the link "/guides/install" points at a file that does not exist',
      );
      expect(await fs.readFile(path.join(ws.dir, 'guides/faq.mdx'), 'utf8')).toContain('[install](/guides/setup)');
      expect(run.result).toMatchObject({
        title: 'Add FAQ page',
        summary: 'Added a FAQ page linking to setup.',
        turns: 4,
      });
    } finally {
      await ws.cleanup();
    }
  });

  it('stops repairing after maxRepairRounds and reports what is still wrong in the summary', async () => {
    const ws = await makeWorkspace(FILES);
    try {
      standIn.script([
        reply([edit({ command: 'create', path: 'broken.mdx', file_text: '# Broken\n\n<Note>\n' })]),
        reply([text('Title: Add page\n\nDone.')]),
        reply([text('Title: Add page\n\nI could not fix it.')]),
      ]);
      const run = await runAgainst({ standIn, workspaceDir: ws.dir, limits: { maxRepairRounds: 1 } });
      expect(run.error).toBeUndefined();
      expect(run.events.filter((e) => e.type === 'check')).toHaveLength(2);
      expect(run.result?.summary).toMatch(
        /^I could not fix it\.\n\nThe automatic checks still report:\n- broken\.mdx no longer parses as MDX: line 3: /,
      );
      expect(standIn.requests).toHaveLength(3);
    } finally {
      await ws.cleanup();
    }
  });
});
