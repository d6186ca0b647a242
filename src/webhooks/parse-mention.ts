/** Who wrote a comment: bots (GitHub Apps, Scribe itself included) never trigger work. */
export function isBot(user: { login?: string; type?: string } | null | undefined): boolean {
  if (!user) return true;
  return user.type === 'Bot' || (user.login ?? '').toLowerCase().endsWith('[bot]');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lines quoted from another comment and code spans mention the App without asking it anything. */
function withoutQuotesAndCode(text: string): string {
  return text
    .replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

/**
 * The instruction in a comment that mentions the App (`@<slug>` or `@<slug>[bot]`, any case, as a whole word),
 * with the mention removed; null when the App is not mentioned. An empty string means a mention with nothing asked.
 */
export function parseMention(text: string, slug: string): string | null {
  const mention = new RegExp(`(^|[^\\w@/-])@${escapeRegExp(slug)}(\\[bot\\])?(?![\\w-])`, 'i');
  if (!mention.test(withoutQuotesAndCode(text))) return null;
  const all = new RegExp(mention.source, 'gi');
  return text
    .replace(all, (_m, before: string) => before)
    .replace(/[ \t]{2,}/g, ' ')
    .trim()
    .replace(/^[,:]\s*/, '');
}
