/** A push to a source repository as Scribe tells the agent about it. */
export interface SourceChange {
  repository: string;
  branch: string;
  before: string;
  after: string;
  compareUrl: string;
  commits: { sha: string; message: string; author: string; url: string }[];
  pulls: { number: number; title: string; body: string; url: string }[];
  files: { filename: string; status: string; additions: number; deletions: number; patch: string | null }[];
}

/** Patches beyond this many characters are summarised by file (name and line counts) instead. */
export const DIFF_BUDGET = 12_000;
const MAX_COMMITS = 30;
const MAX_PULL_BODY = 1_500;
const MAX_FILES = 300;

const short = (sha: string) => sha.slice(0, 7);

/** One line for the pull request's running list: the range, linked, and the pull requests it came from. */
export function changeSummary(change: SourceChange): string {
  const range = /^0+$/.test(change.before) ? short(change.after) : `${short(change.before)}…${short(change.after)}`;
  const pulls = change.pulls.map((p) => `[#${p.number}](${p.url}) ${p.title}`).join('; ');
  const subject = change.commits.at(-1)?.message.split('\n')[0] ?? '';
  return `[${change.repository}@${range}](${change.compareUrl}) on ${change.branch}: ${pulls || subject}`;
}

/** The change as the prompt carries it: commits, associated pull requests, changed files with a bounded diff. Pure. */
export function describeChange(change: SourceChange): string {
  const lines = [
    `## Source change: ${change.repository} ${change.branch} ${short(change.before)}..${short(change.after)}`,
    `Compare: ${change.compareUrl}`,
    '',
    '### Commits',
  ];
  for (const c of change.commits.slice(-MAX_COMMITS))
    lines.push(`- ${short(c.sha)} by ${c.author}: ${c.message.trim().replace(/\n+/g, ' / ').slice(0, 300)} (${c.url})`);
  if (change.commits.length > MAX_COMMITS) lines.push(`- … and ${change.commits.length - MAX_COMMITS} earlier commits`);
  if (change.pulls.length) {
    lines.push('', '### Pull requests');
    for (const p of change.pulls) {
      lines.push(`- #${p.number} ${p.title} (${p.url})`);
      const body = p.body.trim();
      if (body)
        lines.push(
          `  ${(body.length > MAX_PULL_BODY ? `${body.slice(0, MAX_PULL_BODY)}…` : body).replace(/\n/g, '\n  ')}`,
        );
    }
  }
  lines.push('', '### Changed files');
  const files = change.files.slice(0, MAX_FILES);
  for (const f of files) lines.push(`- ${f.filename} (${f.status}, +${f.additions} -${f.deletions})`);
  if (change.files.length > MAX_FILES) lines.push(`- … and ${change.files.length - MAX_FILES} more files`);
  let budget = DIFF_BUDGET;
  const patches: string[] = [];
  const summarised: string[] = [];
  for (const f of files) {
    if (!f.patch) continue;
    const block = `--- ${f.filename}\n${f.patch}`;
    if (block.length <= budget) {
      patches.push(block);
      budget -= block.length;
    } else {
      summarised.push(f.filename);
    }
  }
  if (patches.length) lines.push('', '### Diff', '```diff', ...patches, '```');
  if (summarised.length)
    lines.push('', `Diff too large to include for: ${summarised.join(', ')} (see the compare link).`);
  return lines.join('\n');
}
