import { classifyUserAgent } from '../../src/analytics/classify-user-agent.js';

/** Real user-agent strings as they arrive in access logs. */
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  // the VS Code desktop app: a human in an editor, not a coding agent ("Code" is excluded from the list)
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.95.3 Chrome/128.0.6613.186 Electron/32.2.1 Safari/537.36',
];

const AI: [string, string, string][] = [
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'GPTBot', 'crawler'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'ChatGPT-User', 'assistant'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot', 'OAI-SearchBot', 'search'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ClaudeBot', 'crawler'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)', 'Claude-User', 'assistant'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)', 'Claude-SearchBot', 'search'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'PerplexityBot', 'search'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', 'Perplexity-User', 'assistant'],
  ['Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', 'Bytespider', 'crawler'],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot', 'crawler'],
  ['meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', 'meta-externalagent', 'crawler'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'Applebot', 'search'],
  ['Mozilla/5.0 (compatible; GoogleOther-Image/1.0)', 'GoogleOther-Image', 'crawler'],
  ['Mozilla/5.0 (compatible; GoogleOther)', 'GoogleOther', 'crawler'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36', 'Amazonbot', 'crawler'],
  ['Mozilla/5.0 (compatible; DuckAssistBot/1.2; +http://duckduckgo.com/duckassistbot.html)', 'DuckAssistBot', 'assistant'],
  // Cursor's Electron user agent fetching docs for its agent
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cursor/0.43.6 Chrome/128.0.6613.186 Electron/32.2.6 Safari/537.36', 'Cursor', 'agent'],
];

const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)',
  'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Go-http-client/1.1',
  'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
];

describe('classifyUserAgent', () => {
  it.each(BROWSERS)('a browser is human: %s', (ua) => {
    expect(classifyUserAgent(ua)).toEqual({ class: 'human' });
  });

  it.each(AI)('an AI agent is ai with its name and kind: %s', (ua, agent, aiKind) => {
    expect(classifyUserAgent(ua)).toEqual({ class: 'ai', agent, aiKind });
  });

  it.each(BOTS)('other automation is bot: %s', (ua) => {
    expect(classifyUserAgent(ua).class).toBe('bot');
  });

  it('names a bot by the token isbot matched in', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).toEqual({ class: 'bot', agent: 'bingbot' });
  });

  it('matches agent names as whole words only', () => {
    // a longer name that merely contains a listed one, and the openai.com URL inside other products, are not agents
    expect(classifyUserAgent('Mozilla/5.0 (compatible; SuperGPTBotX/1.0)').class).not.toBe('ai');
    expect(classifyUserAgent('Mozilla/5.0 (compatible; ExampleFetcher/1.0; +https://openai.com/blog)')).not.toMatchObject({ class: 'ai' });
    expect(classifyUserAgent('Mozilla/5.0 (compatible; gptbot/1.0)')).toMatchObject({ class: 'ai', agent: 'GPTBot' });
  });

  it('treats a missing user agent as automation', () => {
    expect(classifyUserAgent('')).toEqual({ class: 'bot', agent: 'no user agent' });
    expect(classifyUserAgent(undefined).class).toBe('bot');
  });
});
