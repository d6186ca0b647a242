import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { InstallationOctokit } from '../github/github-app.js';
import type { LoadedConfig } from '../automations/config-store.js';
import { CONFIG_PATH } from '../automations/parse-config.js';
import { findProject } from '../projects/projects.js';
import { randomId } from '../ids.js';
import { claimReview, finishReview, recordCheckRun } from './review-store.js';
import { completeCheckRun, openCheckRun } from './check-run.js';

/** A pull_request automation that names this repository but did not load, with why. */
export interface BrokenAutomation {
  projectId: string;
  automation: string;
  messages: string[];
}

/** The pull_request automations of every config that name `repository` and did not load. Pure. */
export function brokenAutomations(configs: LoadedConfig[], repository: string): BrokenAutomation[] {
  const found = new Map<string, BrokenAutomation>();
  for (const config of configs)
    for (const problem of config.problems) {
      if (!problem.automation || problem.pullRequestRepository?.toLowerCase() !== repository.toLowerCase()) continue;
      const key = `${config.projectId}/${problem.automation}`;
      const entry = found.get(key) ?? { projectId: config.projectId, automation: problem.automation, messages: [] };
      entry.messages.push(problem.message);
      found.set(key, entry);
    }
  return [...found.values()];
}

/**
 * A neutral `Scribe docs` check saying that the docs config's review of this repository did not load, and why: a
 * broken config is said on the pull requests it would have reviewed, never silence. Once per head commit and
 * automation, like a review.
 */
export async function reportBrokenAutomation(params: {
  db: Db;
  clock: Clock;
  octokit: InstallationOctokit;
  leaseMs: number;
  repository: string;
  number: number;
  headSha: string;
  broken: BrokenAutomation;
  name: string;
}): Promise<string> {
  const { db, clock, broken } = params;
  const project = await findProject(db, broken.projectId);
  if (!project || project.disabledAt) return `${broken.automation}: project disabled`;
  const owner = randomId('rvw');
  const key = {
    projectId: project.id,
    automationId: broken.automation,
    repository: params.repository,
    headSha: params.headSha,
  };
  const claim = await claimReview({ db, clock, key, number: params.number, owner, leaseMs: params.leaseMs });
  if (!('claimed' in claim)) return `${broken.automation}: did not load; already said on ${params.headSha.slice(0, 7)}`;
  const checkRunId = await openCheckRun({
    octokit: params.octokit,
    repository: params.repository,
    headSha: params.headSha,
    name: params.name,
    reviewId: claim.claimed.id,
    known: claim.claimed.checkRunId,
    startedAt: clock(),
  });
  await recordCheckRun({ db, clock, id: claim.claimed.id, checkRunId });
  const title = 'Docs review could not run';
  await completeCheckRun({
    octokit: params.octokit,
    repository: params.repository,
    checkRunId,
    conclusion: 'neutral',
    title,
    summary: [
      `The automation \`${broken.automation}\` in ${CONFIG_PATH} of the docs repository ${project.repository} names this repository but did not load:`,
      '',
      ...broken.messages.map((m) => `- ${m}`),
      '',
      `Fix ${CONFIG_PATH} on the docs repository's \`${project.ref}\` branch; the next push here is reviewed.`,
    ].join('\n'),
    offerDraft: false,
    completedAt: clock(),
  });
  await finishReview({
    db,
    clock,
    id: claim.claimed.id,
    owner,
    status: 'completed',
    conclusion: 'neutral',
    title,
    pageCount: 0,
    findings: null,
  });
  return `${broken.automation}: check ${checkRunId} neutral: the automation did not load`;
}
