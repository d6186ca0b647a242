export interface OpeningTag {
  name: string;
  /** String attribute values, `null` for `{expressions}`; `undefined` when the tag cannot be read (a `{...spread}`). */
  attributes?: Map<string, string | null>;
}

const ATTRIBUTE = /\s*([A-Za-z_][\w:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|(\{)))?/y;

/** The index just past the `}` closing the expression whose `{` is just before `from`. */
function skipExpression(text: string, from: number): number {
  let depth = 1;
  let i = from;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') depth--;
  }
  return i;
}

function readAttributes(text: string, from: number): Map<string, string | null> | undefined {
  const attributes = new Map<string, string | null>();
  let i = from;
  for (;;) {
    ATTRIBUTE.lastIndex = i;
    const match = ATTRIBUTE.exec(text);
    if (!match) break;
    i = match[4] ? skipExpression(text, ATTRIBUTE.lastIndex) : ATTRIBUTE.lastIndex;
    attributes.set(match[1], match[4] ? null : (match[2] ?? match[3] ?? ''));
  }
  return /^\s*\/?>/.test(text.slice(i, i + 64)) ? attributes : undefined;
}

/**
 * The JSX opening tags of the named components in `text`, attributes read across lines. Pure and
 * lenient: the caller blanks code blocks and inline code first, where a tag is only an example.
 */
export function jsxOpeningTags(text: string, names: readonly string[]): OpeningTag[] {
  const pattern = new RegExp(`<(${names.join('|')})(?=[\\s/>])`, 'g');
  return [...text.matchAll(pattern)].map((match) => ({
    name: match[1],
    attributes: readAttributes(text, match.index + match[0].length),
  }));
}
