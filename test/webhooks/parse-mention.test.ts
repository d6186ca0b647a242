import { isBot, parseMention } from '../../src/webhooks/parse-mention.js';

describe('parseMention', () => {
  it('finds the mention as a whole word, any case, with or without [bot], and removes it', () => {
    expect(parseMention('@scribe-docs fix the intro', 'scribe-docs')).toBe('fix the intro');
    expect(parseMention('@Scribe-Docs, please fix the intro', 'scribe-docs')).toBe('please fix the intro');
    expect(parseMention('Could you @scribe-docs[bot] rename it?', 'scribe-docs')).toBe('Could you rename it?');
    expect(parseMention('@scribe-docs', 'scribe-docs')).toBe('');
  });

  it('ignores other names, e-mail addresses, quotes and code', () => {
    expect(parseMention('@scribe-docs-bot fix it', 'scribe-docs')).toBeNull();
    expect(parseMention('@scribe fix it', 'scribe-docs')).toBeNull();
    expect(parseMention('mail me@scribe-docs.com', 'scribe-docs')).toBeNull();
    expect(parseMention('> @scribe-docs fix it\n\nI agree with this', 'scribe-docs')).toBeNull();
    expect(parseMention('Run `@scribe-docs fix` in a comment', 'scribe-docs')).toBeNull();
    expect(parseMention('```\n@scribe-docs fix\n```', 'scribe-docs')).toBeNull();
    expect(parseMention('no mention at all', 'scribe-docs')).toBeNull();
  });
});

describe('isBot', () => {
  it('treats GitHub Apps, [bot] logins and missing users as bots', () => {
    expect(isBot({ login: 'dependabot[bot]', type: 'Bot' })).toBe(true);
    expect(isBot({ login: 'scribe-docs[bot]', type: 'User' })).toBe(true);
    expect(isBot({ login: 'ci-runner', type: 'Bot' })).toBe(true);
    expect(isBot(null)).toBe(true);
    expect(isBot({ login: 'octocat', type: 'User' })).toBe(false);
  });
});
