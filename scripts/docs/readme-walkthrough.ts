/**
 * The README's first-hour walkthrough as the shell blocks a reader pastes, so a test can run exactly them.
 * A block is marked by an HTML comment right above its fence, `<!-- first-hour:<name> -->`, invisible on GitHub.
 */

export interface WalkthroughBlock {
  name: string;
  /** the block's shell text, as written */
  script: string;
  /** the text of the next fenced block, when it shows what this one prints (```json) */
  shows?: string;
}

const MARKED = /<!-- first-hour:([a-z-]+) -->\n```sh\n([\s\S]*?)\n```\n/g;
const SHOWN_JSON = /^```json\n([\s\S]*?)\n```/;

/** The marked blocks of the walkthrough, in the README's order. */
export function walkthroughBlocks(readme: string): WalkthroughBlock[] {
  return [...readme.matchAll(MARKED)].map((m) => {
    const after = readme.slice((m.index ?? 0) + m[0].length);
    const nextFence = after.indexOf('```');
    const shown = nextFence < 0 ? null : SHOWN_JSON.exec(after.slice(nextFence));
    return { name: m[1], script: m[2], ...(shown ? { shows: shown[1] } : {}) };
  });
}

/**
 * One bash script running the blocks in order in one shell (variables carry over, as in the reader's terminal),
 * printing `::<name>` before each block's output so the caller can split it.
 */
export function walkthroughScript(blocks: readonly WalkthroughBlock[]): string {
  // a newline first: curl's answers end without one
  return ['set -euo pipefail', ...blocks.flatMap((b) => [`printf '\\n::%s\\n' '${b.name}'`, b.script])].join('\n');
}

/** The output of `walkthroughScript`, by block name. */
export function outputsByBlock(stdout: string): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const part of stdout.split(/^::/m).slice(1)) {
    const newline = part.indexOf('\n');
    outputs.set(part.slice(0, newline < 0 ? undefined : newline), newline < 0 ? '' : part.slice(newline + 1).trim());
  }
  return outputs;
}
