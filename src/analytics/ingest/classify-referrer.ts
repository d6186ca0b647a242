/** Hosts of AI assistants whose users click through to docs; such a visitor is human, referred by the assistant. */
const ASSISTANT_HOSTS: Record<string, string> = {
  'chatgpt.com': 'ChatGPT',
  'chat.openai.com': 'ChatGPT',
  'claude.ai': 'Claude',
  'perplexity.ai': 'Perplexity',
  'gemini.google.com': 'Gemini',
  'bard.google.com': 'Gemini',
  'copilot.microsoft.com': 'Copilot',
  'chat.mistral.ai': 'Mistral',
  'chat.deepseek.com': 'DeepSeek',
  'you.com': 'You.com',
  'phind.com': 'Phind',
  'poe.com': 'Poe',
  'meta.ai': 'Meta AI',
  'grok.com': 'Grok',
  'kimi.com': 'Kimi',
};

/** The assistant a referrer belongs to, if any (subdomains included: www.perplexity.ai). */
export function assistantFromReferrer(referrer: string | undefined | null): string | undefined {
  if (!referrer) return undefined;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) {
    if (ASSISTANT_HOSTS[h]) return ASSISTANT_HOSTS[h];
  }
  return undefined;
}

const MAY_NAME_UTM_SOURCE = /utm_source|[%\t\n\r]/;

/**
 * The assistant named by a page URL's `utm_source` (ChatGPT tags its links `utm_source=chatgpt.com`; others use a
 * name): a host of the list above or an assistant's name, case-insensitive.
 */
export function assistantFromUtmSource(url: string | undefined | null): string | undefined {
  // most views name no utm_source: without the name, a percent escape (which could spell it) or a tab or newline
  // (which URL parsing drops), none can be read, and parsing every view's URL was a tenth of the ingest's work
  if (!url || !MAY_NAME_UTM_SOURCE.test(url)) return undefined;
  let source: string | null;
  try {
    source = new URL(url, 'http://relative.invalid').searchParams.get('utm_source');
  } catch {
    return undefined;
  }
  if (!source) return undefined;
  const value = source.trim().toLowerCase();
  return (
    assistantFromReferrer(`https://${value}/`) ??
    Object.values(ASSISTANT_HOSTS).find((name) => name.toLowerCase() === value)
  );
}

/** What is kept of a referrer: origin and path, no query or fragment (they can carry personal data). */
export function normalizeReferrer(referrer: string | undefined | null): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname}`.slice(0, 500);
  } catch {
    return null;
  }
}
