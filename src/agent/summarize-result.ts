/** The title/summary of the pull request, derived from the model's final message. */
export interface AgentSummary {
  title: string;
  summary: string;
}

const MAX_TITLE = 72;
const TITLE_LINE = /^\s*(?:pr |pull request )?title\s*:\s*/i;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function plainLine(text: string): string {
  return text
    .replace(/^[#>*\-\s]+/, '')
    .replace(/[*_`]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();
}

/**
 * The system prompt asks the model to end with `Title: …` then the summary. Models do not always
 * comply, so every part falls back: the first line of the text, then the task itself.
 */
export function summarizeResult(finalText: string, currentInstruction: string): AgentSummary {
  const lines = finalText.replace(/\r\n/g, '\n').split('\n');
  const titleAt = lines.findIndex((line) => TITLE_LINE.test(line.replace(/[*_]/g, '')));
  let title = '';
  let body = lines;
  if (titleAt >= 0) {
    title = plainLine(lines[titleAt].replace(/[*_]/g, '').replace(TITLE_LINE, ''));
    body = lines.slice(titleAt + 1);
  }
  let summary = body
    .join('\n')
    .replace(/^\s*(\*\*)?summary(\*\*)?\s*:\s*(\*\*)?/im, '')
    .trim();
  if (!summary && titleAt > 0) summary = lines.slice(0, titleAt).join('\n').trim();
  if (!summary) summary = 'The agent finished without describing its changes.';
  if (!title) {
    const firstLine = (
      finalText
        .split('\n')
        .map(plainLine)
        .find((line) => line.length > 0) ?? ''
    ).replace(/[.:]$/, '');
    const fromTask = plainLine(currentInstruction.split('\n').find((line) => line.trim()) ?? '');
    title = firstLine || (fromTask ? `Docs: ${fromTask}` : 'Documentation update');
  }
  return { title: clip(title.replace(/\.$/, ''), MAX_TITLE), summary };
}
