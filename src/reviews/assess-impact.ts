import type { Project } from '../projects/projects.js';
import { GitFailure } from '../git/workspace.js';
import { gitHubFailure } from '../github/github-failure.js';
import type { PullRequestAutomation } from '../automations/match-pull-request.js';
import type { PullRequestFiles } from './read-pull-request-files.js';
import { DocsUnreadable, readDocsPages } from './read-docs-pages.js';
import { findDocsImpact, type DocsPage } from './impact/find-impact.js';
import { renderCheckOutput } from './impact/check-output.js';
import { judgeFindings } from './judge-findings.js';
import type { CheckConclusion } from './check-run.js';
import { MAX_FILES, MAX_PATCH_BYTES, type ReviewDeps, type SourcePullRequest } from './review-deps.js';

/** How long each stage took, logged with the review's end (the bench reads them). */
export interface Timings {
  filesMs: number;
  pagesMs?: number;
  impactMs?: number;
  judgeMs?: number;
}

export interface Outcome {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  pageCount: number;
  findings: string | null;
}

/** Impact, then judgment, then the check's words. */
export async function assess(params: {
  deps: ReviewDeps;
  pr: SourcePullRequest;
  project: Project;
  automation: PullRequestAutomation;
  files: PullRequestFiles;
  pages: Map<string, Promise<DocsSnapshot>>;
  timings: Timings;
}): Promise<Outcome> {
  const { deps, pr, project, automation, files, timings } = params;
  let at = performance.now();
  const lap = () => {
    const ms = performance.now() - at;
    at = performance.now();
    return ms;
  };
  let pages = params.pages.get(project.id);
  if (!pages) {
    pages = readProjectPages(deps, project);
    params.pages.set(project.id, pages);
  }
  const docs = await pages;
  timings.pagesMs = lap();
  const impact = findDocsImpact({
    files: files.files,
    pages: docs.pages,
    maxFiles: MAX_FILES,
    maxPatchBytes: MAX_PATCH_BYTES,
  });
  timings.impactMs = lap();
  const judged = deps.judge
    ? await judgeFindings({ ...deps.judge, findings: impact.findings, files: files.files })
    : null;
  if (judged) timings.judgeMs = lap();
  const kept = judged ? judged.kept : impact.findings;
  const rendered = renderCheckOutput({
    impact: { ...impact, findings: kept },
    rejected: judged?.rejected,
    reasons: judged?.reasons,
    // a configured model whose call failed is said by the judgment's note, not as "no model is configured"
    modelUsed: judged !== null,
    docsRepoUrl: deps.github.repositoryUrl(project.repository),
    // the commit read, so each link points at the line as it was reviewed
    docsRef: docs.sha,
    sourceRepoUrl: deps.github.repositoryUrl(pr.repository),
    headSha: pr.headSha,
    baseSha: pr.baseSha,
  });
  const notes = [
    judged?.note ?? '',
    files.unlisted
      ? `GitHub lists at most 3,000 files of a pull request: ${files.unlisted} more changed files were not read.`
      : '',
  ].filter(Boolean);
  return {
    conclusion: rendered.pageCount === 0 ? 'success' : automation.review.block ? 'failure' : 'neutral',
    title: rendered.title,
    summary: notes.length ? `${notes.join('\n\n')}\n\n${rendered.summary}` : rendered.summary,
    pageCount: rendered.pageCount,
    findings: JSON.stringify({
      findings: kept.map((f) => ({ ...f, reason: judged?.reasons.get(f) ?? null })),
      rejected: judged?.rejected ?? [],
    }),
  };
}

export interface DocsSnapshot {
  sha: string;
  pages: DocsPage[];
}

/** The docs branch's head commit, and its pages (read once per commit across this process's reviews). */
export async function readProjectPages(deps: ReviewDeps, project: Project): Promise<DocsSnapshot> {
  const installationId = await deps.github.installationFor(project.repository, project.installationId);
  const octokit = await deps.github.octokit(installationId);
  const [owner, repo] = project.repository.split('/');
  const { data } = await octokit.rest.repos.getBranch({ owner, repo, branch: project.ref });
  const sha = data.commit.sha;
  const pages = await deps.docsCache.get(project.repository, sha, async () =>
    readDocsPages({
      url: deps.github.gitUrl(project.repository),
      sha,
      token: await deps.github.freshToken(installationId),
    }),
  );
  return { sha, pages };
}

/** What the check says when the review could not be done: neutral, with the reason, never silence. */
export function cannotReview(deps: ReviewDeps, project: Project, err: unknown): Outcome {
  const mapped = gitHubFailure(err, `the docs repository ${project.repository}`);
  const reason =
    err instanceof DocsUnreadable
      ? err.message
      : err instanceof GitFailure
        ? `the docs repository ${project.repository} could not be cloned (${err.message})`
        : `${(mapped as Error)?.message ?? String(mapped)}`.split('\n')[0].slice(0, 500).replace(/\.$/, '');
  deps.logger.warn({ err, project: project.id }, 'a docs review could not read the docs');
  return {
    conclusion: 'neutral',
    title: 'Docs review could not run',
    summary: `Scribe could not review this pull request against the docs repository ${project.repository} at \`${project.ref}\`: ${reason}.\n\nFix the cause and push again.`,
    pageCount: 0,
    findings: null,
  };
}
