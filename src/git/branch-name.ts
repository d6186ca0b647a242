const MAX_SLUG = 40;

/** `scribe/<short job id>-<slug of the prompt>`: readable in GitHub's branch list, always a valid ref. */
export function branchName(jobId: string, prompt: string): string {
  const short = jobId.replace(/^job_/, '').slice(0, 8).toLowerCase();
  const slug = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG)
    .replace(/^-+|-+$/g, '');
  return slug ? `scribe/${short}-${slug}` : `scribe/${short}`;
}
