import {
  archivedText,
  commandAcceptedText,
  issueCommandPrompt,
  runReplyText,
} from '../../src/conversations/reply-text.js';

describe('reply texts', () => {
  const base = { jobId: 'job_1', jobUrl: 'https://scribe.test/v2/agent/prj_1/job/job_1', author: null };

  it('a follow-up that committed names the commit and branch, with the summary', () => {
    expect(
      runReplyText({
        ...base,
        kind: 'follow_up',
        finished: { sha: 'abcdef1234567', branch: 'scribe/x', prLink: 'https://gh/pr/1', summary: 'Renamed it.' },
      }),
    ).toBe('I pushed abcdef1 to `scribe/x`.\n\nRenamed it.');
  });

  it('a command that opened a pull request links it', () => {
    expect(
      runReplyText({
        ...base,
        kind: 'command',
        author: 'ann',
        finished: { sha: 'abcdef1234567', branch: 'scribe/x', prLink: 'https://gh/pr/1', summary: 'Added a page.' },
      }),
    ).toBe('@ann I opened https://gh/pr/1 (commit abcdef1).\n\nAdded a page.');
  });

  it('no change says why, and a command says no pull request was opened', () => {
    expect(
      runReplyText({
        ...base,
        kind: 'command',
        finished: { sha: null, branch: 'b', prLink: null, summary: 'Already documented.' },
      }),
    ).toBe('I changed nothing. No pull request was opened. Here is why:\n\nAlready documented.');
    expect(
      runReplyText({ ...base, kind: 'follow_up', finished: { sha: null, branch: 'b', prLink: 'x', summary: null } }),
    ).toBe('I changed nothing. Here is why:\n\nThe agent gave no reason.');
  });

  it('a failure gives the job’s error and links the job', () => {
    expect(
      runReplyText({ ...base, kind: 'command', error: 'The model declined this request; rephrase the prompt' }),
    ).toBe(
      'I could not finish this (Scribe job [`job_1`](https://scribe.test/v2/agent/prj_1/job/job_1)): The model declined this request; rephrase the prompt',
    );
  });

  it('acknowledgement, archive note and issue prompt', () => {
    expect(commandAcceptedText({ author: 'ann', jobId: 'job_1', jobUrl: null })).toBe(
      '@ann On it: Scribe job `job_1` is queued. I will reply here with the pull request when it is done.',
    );
    expect(archivedText({ jobId: 'job_1', jobUrl: null })).toContain('Scribe job `job_1` was archived');
    expect(
      issueCommandPrompt({
        instruction: 'Document it',
        repository: 'a/b',
        number: 3,
        title: ' Missing page ',
        body: '',
      }),
    ).toBe('Document it\n\nThis request was made on issue #3 of a/b:\n\n### Missing page');
  });
});
