import { pullRequestText } from '../../src/github/pull-request.js';

describe('pullRequestText', () => {
  it('takes the title from the agent, quotes every prompt and links back to the job', () => {
    const text = pullRequestText({
      title: 'Document the --dry-run flag',
      summary: 'Added a section on --dry-run to cli.mdx.',
      prompts: ['Document --dry-run\nwith an example', 'Also mention it in the FAQ'],
      jobId: 'job_1',
      jobUrl: 'https://scribe.acme.test/v2/agent/prj_1/job/job_1',
    });
    expect(text.title).toBe('Document the --dry-run flag');
    expect(text.body).toBe(
      [
        'Added a section on --dry-run to cli.mdx.',
        '### Prompt\n\n> Document --dry-run\n> with an example',
        '### Follow-up 1\n\n> Also mention it in the FAQ',
        '---\nOpened by Scribe for agent job [`job_1`](https://scribe.acme.test/v2/agent/prj_1/job/job_1).',
      ].join('\n\n'),
    );
  });

  it('falls back to the prompt for the title, clips long titles, and names the job without a public URL', () => {
    const text = pullRequestText({
      title: null,
      summary: null,
      prompts: [`${'Rewrite '.repeat(30)}\nsecond line`],
      jobId: 'job_2',
      jobUrl: null,
    });
    expect(text.title.length).toBeLessThanOrEqual(120);
    expect(text.title.endsWith('…')).toBe(true);
    expect(text.body).toContain('The documentation agent edited the files in this pull request.');
    expect(text.body).toContain('Opened by Scribe for agent job `job_2`.');
  });
});
