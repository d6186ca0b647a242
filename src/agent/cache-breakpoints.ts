import type Anthropic from '@anthropic-ai/sdk';

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Every turn resends the tools, the system prompt and the whole conversation. Marking the system
 * prompt and the newest message as cache breakpoints lets the API bill the repeated prefix at the
 * cache-read rate instead of the full input rate. Pure: the stored conversation is not changed.
 */
export function withCacheBreakpoints(
  system: string,
  messages: Anthropic.MessageParam[],
): { system: Anthropic.TextBlockParam[]; messages: Anthropic.MessageParam[] } {
  const last = messages.at(-1);
  if (!last) return { system: [{ type: 'text', text: system, cache_control: EPHEMERAL }], messages };
  const blocks: Anthropic.ContentBlockParam[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  const tail = blocks.at(-1);
  if (tail && (tail.type === 'text' || tail.type === 'tool_result'))
    blocks[blocks.length - 1] = { ...tail, cache_control: EPHEMERAL };
  return {
    system: [{ type: 'text', text: system, cache_control: EPHEMERAL }],
    messages: [...messages.slice(0, -1), { ...last, content: blocks } as Anthropic.MessageParam],
  };
}
