import type Anthropic from '@anthropic-ai/sdk';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { GitHubApp } from '../github/github-app.js';
import { loadedConfig, loadedConfigs } from '../automations/loaded-configs.js';
import type { LoadedConfig } from '../automations/config-store.js';
import { reloadConfigsOnPush } from '../automations/reload-configs.js';
import type { Push } from '../automations/on-push.js';
import { reviewPullRequest, type SourcePullRequest } from './review-pull-request.js';
import { DocsPagesCache } from './docs-pages-cache.js';

export interface Reviews {
  /** a source pull request opened or pushed to: the `Scribe docs` check of its head commit for each automation */
  onPullRequest(pr: SourcePullRequest): Promise<string>;
  /**
   * a push while automations are off (no model): docs configs still follow their default branch, so the reviews read
   * the automations a docs repository declares now
   */
  reloadConfigs(push: Push): Promise<string[]>;
  /** a project's automations config as the reviews see it (read from GitHub the first time), with or without a model */
  config(projectId: string): Promise<LoadedConfig>;
}

/**
 * Docs reviews of source pull requests: they need the GitHub App only; a configured model (`judge`) adds its
 * judgment of the findings.
 */
export function createReviews(params: {
  db: Db;
  clock: Clock;
  logger: Logger;
  github: GitHubApp;
  judge: { anthropic: Anthropic; model: string; maxInputTokens: number } | null;
  leaseMs: number;
  heartbeatMs: number;
}): Reviews {
  const { db, clock, logger, github } = params;
  const deps = {
    ...params,
    docsCache: new DocsPagesCache(),
    configs: () => loadedConfigs({ db, clock, logger, github }),
  };
  return {
    onPullRequest: async (pr) => (await reviewPullRequest(deps, pr)).join('; '),
    reloadConfigs: (push) => reloadConfigsOnPush({ db, clock, logger, github }, push),
    config: (projectId) => loadedConfig({ db, clock, logger, github }, projectId),
  };
}
