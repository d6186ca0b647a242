import type { InstallationOctokit } from './github-app.js';

export interface PullRequestText {
  title: string;
  body: string;
}

const MAX_TITLE = 120;

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** Title and body of the pull request, from the agent's summary and the prompts; pure, so tested without a network. */
export function pullRequestText(params: {
  title: string | null;
  summary: string | null;
  prompts: string[];
  notes?: string | null;
  jobId: string;
  jobUrl: string | null;
}): PullRequestText {
  const firstLine = (
    params.title?.trim() ||
    params.prompts[0]?.trim().split('\n')[0] ||
    'Documentation update'
  ).replace(/\s+/g, ' ');
  const title = firstLine.length > MAX_TITLE ? `${firstLine.slice(0, MAX_TITLE - 1)}…` : firstLine;
  const [original, ...followUps] = params.prompts;
  const sections = [
    params.summary?.trim() || 'The documentation agent edited the files in this pull request.',
    // An automation's notes (the source changes covered) stand in for its prompts, which repeat diffs
    ...(params.notes
      ? [params.notes]
      : [
          `### Prompt\n\n${quote(original ?? '')}`,
          ...followUps.map((p, i) => `### Follow-up ${i + 1}\n\n${quote(p)}`),
        ]),
    `---\nOpened by Scribe for agent job ${params.jobUrl ? `[\`${params.jobId}\`](${params.jobUrl})` : `\`${params.jobId}\``}.`,
  ];
  return { title, body: sections.join('\n\n') };
}

/**
 * Opens the job's pull request, or, when one is already open for the branch (a follow-up, or a run resumed after
 * a crash), refreshes its text and leaves a comment for the follow-up. Returns its number and web address.
 */
export async function openOrUpdatePullRequest(params: {
  octokit: InstallationOctokit;
  repository: string;
  base: string;
  head: string;
  text: PullRequestText;
  draft: boolean;
  comment?: string;
  /** false when no pull request can exist yet (the branch was just pushed for the first time): saves a lookup */
  mayExist?: boolean;
}): Promise<{ number: number; url: string; created: boolean }> {
  const { octokit, base, head, text } = params;
  const [owner, repo] = params.repository.split('/');
  const open =
    params.mayExist === false
      ? []
      : (await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${head}`, state: 'open', per_page: 1 })).data;
  if (open[0]) {
    const pr = open[0];
    await octokit.rest.pulls.update({ owner, repo, pull_number: pr.number, title: text.title, body: text.body });
    if (params.comment)
      await octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: params.comment });
    return { number: pr.number, url: pr.html_url, created: false };
  }
  const { data: pr } = await octokit.rest.pulls.create({
    owner,
    repo,
    base,
    head,
    title: text.title,
    body: text.body,
    draft: params.draft,
  });
  return { number: pr.number, url: pr.html_url, created: true };
}
