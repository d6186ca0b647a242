/**
 * The first user message: the current task, with earlier instructions on the same branch for
 * context (a follow-up run sees them all; their edits are already in the workspace).
 */
export function buildTaskMessage(params: { instructions: string[]; context?: string }): string {
  const { instructions, context } = params;
  const current = instructions.at(-1) ?? '';
  const parts: string[] = [];
  if (instructions.length > 1) {
    const earlier = instructions
      .slice(0, -1)
      .map((text, i) => `<instruction number="${i + 1}">\n${text}\n</instruction>`);
    parts.push(
      `Earlier instructions on this branch (already carried out; their changes are in the repository):\n${earlier.join('\n')}`,
    );
  }
  if (context) parts.push(`Context for the task:\n<context>\n${context}\n</context>`);
  parts.push(`Your task:\n<task>\n${current}\n</task>`);
  return parts.join('\n\n');
}
