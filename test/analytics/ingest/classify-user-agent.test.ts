import { classifyUserAgent } from '../../../src/analytics/ingest/classify-user-agent.js';

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
  // browsers and apps whose product tokens are compound words: none may start with a listed agent's name
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 YaBrowser/24.10.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Vivaldi/7.0.3495.18',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile DuckDuckGo/5 Safari/537.36',
  'Mozilla/5.0 (Linux; U; Android 13; en-US; SM-A536B Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.80 UCBrowser/13.7.0.1322 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; U; Android 14; en-us; 23049PCD8G Build/UKQ1.231003.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 XiaoMi/MiuiBrowser/14.18.0-gn',
  'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.14.0.322) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/15.0.4.312 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/130.3.1 like Chrome/130.0.6723.102 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 EdgiOS/131.2903.68 Mobile/15E148 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/343.0.695551749 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/491.0.0.42.108;FBBV/665574231;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/18.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 356.0.0.29.87 (iPhone15,2; iOS 18_1; en_US; en; scale=3.00; 1179x2556; 658473862)',
  'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/35.4.0.3.75 Chrome/130.0.6723.102 VR Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Whale/4.29.282.14 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) coc_coc_browser/137.0.206 Chrome/131.0.6778.206 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.41.105 Chrome/130.0.6723.137 Electron/33.2.0 Safari/537.36 Sonic Slack_SSB/4.41.105',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) discord/1.0.9173 Chrome/128.0.6613.186 Electron/32.2.7 Safari/537.36',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];

const AI: [string, string, string][] = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'GPTBot',
    'crawler',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'ChatGPT-User',
    'assistant',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
    'OAI-SearchBot',
    'search',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'ClaudeBot',
    'crawler',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
    'Claude-User',
    'assistant',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)',
    'Claude-SearchBot',
    'search',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    'PerplexityBot',
    'search',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
    'Perplexity-User',
    'assistant',
  ],
  [
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
    'Bytespider',
    'crawler',
  ],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot', 'crawler'],
  [
    'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-externalagent',
    'crawler',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Applebot',
    'search',
  ],
  ['Mozilla/5.0 (compatible; GoogleOther-Image/1.0)', 'GoogleOther-Image', 'crawler'],
  ['Mozilla/5.0 (compatible; GoogleOther)', 'GoogleOther', 'crawler'],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
    'Amazonbot',
    'crawler',
  ],
  [
    'Mozilla/5.0 (compatible; DuckAssistBot/1.2; +http://duckduckgo.com/duckassistbot.html)',
    'DuckAssistBot',
    'assistant',
  ],
  // Cursor's Electron user agent fetching docs for its agent
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cursor/0.43.6 Chrome/128.0.6613.186 Electron/32.2.6 Safari/537.36',
    'Cursor',
    'agent',
  ],
  // listed names that begin a longer product token: a compound word, or a name with a customer id appended
  ['AwarioSmartBot/1.0 (+https://awario.com/bots.html; bots@awario.com)', 'Awario', 'crawler'],
  ['AwarioRssBot/1.0 (+https://awario.com/bots.html; bots@awario.com)', 'Awario', 'crawler'],
  ['amazon-kendra-5b1c0f3e-8a72-4d1e-9c4b-2f6e7a9d0c31', 'amazon-kendra', 'search'],
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
    expect(classifyUserAgent('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')).toEqual({
      class: 'bot',
      agent: 'bingbot',
    });
  });

  it('matches agent names as whole words only', () => {
    // a longer name that merely contains a listed one, and the openai.com URL inside other products, are not agents
    expect(classifyUserAgent('Mozilla/5.0 (compatible; SuperGPTBotX/1.0)').class).not.toBe('ai');
    expect(
      classifyUserAgent('Mozilla/5.0 (compatible; ExampleFetcher/1.0; +https://openai.com/blog)'),
    ).not.toMatchObject({ class: 'ai' });
    expect(classifyUserAgent('Mozilla/5.0 (compatible; gptbot/1.0)')).toMatchObject({ class: 'ai', agent: 'GPTBot' });
  });

  it('matches a name at the start of a product token only where a new word of the token begins', () => {
    // not at the start of a token: URLs and e-mail addresses of other products, or a name inside a longer word
    expect(
      classifyUserAgent('Mozilla/5.0 (compatible; ExampleFetcher/1.0; +https://awario.com/bots.html)').class,
    ).not.toBe('ai');
    expect(classifyUserAgent('Mozilla/5.0 (compatible; ExampleFetcher/1.0; openai.com-compatible)').class).not.toBe(
      'ai',
    );
    expect(classifyUserAgent('Mozilla/5.0 (compatible; ExampleFetcher/1.0; +ops@openai.community)').class).not.toBe(
      'ai',
    );
    // a name running on in lower case is another word: "Devin" is not in "Devinci", nor "Trae" in "Traefik"
    expect(
      classifyUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Devinci/2.1',
      ),
    ).toEqual({ class: 'human' });
    expect(
      classifyUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Traefik/3.1',
      ),
    ).toEqual({ class: 'human' });
    // nor does a name that ends in a capital start a word at the next capital: "YaK" is not in "YaKBrowser"
    expect(
      classifyUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 YaKBrowser/1.0 Safari/537.36',
      ),
    ).toEqual({ class: 'human' });
    // the longest listed name wins, so GoogleOther-Image is still not GoogleOther
    expect(classifyUserAgent('GoogleOther-Image/1.0')).toMatchObject({ class: 'ai', agent: 'GoogleOther-Image' });
    expect(classifyUserAgent('Mozilla/5.0 (compatible; GoogleOther-Video/1.0)')).toMatchObject({
      class: 'ai',
      agent: 'GoogleOther-Video',
    });
  });

  it('treats a missing user agent as automation', () => {
    expect(classifyUserAgent('')).toEqual({ class: 'bot', agent: 'no user agent' });
    expect(classifyUserAgent(undefined).class).toBe('bot');
  });
});
