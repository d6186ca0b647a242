import type Anthropic from '@anthropic-ai/sdk';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { GitHubApp } from '../github/github-app.js';
import type { LoadedConfig } from '../automations/config-store.js';
import type { DocsPagesCache } from './docs-pages-cache.js';

/** §4: a diff past 5,000 files or 20 MB of patches is reviewed in part; the check names the files left out. */
export const MAX_FILES = 5_000;
export const MAX_PATCH_BYTES = 20 * 1024 * 1024;

/** What a review works with, handed over once by createReviews. */
export interface ReviewDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  github: GitHubApp;
  /** the model that judges findings; null: the deterministic list is the result */
  judge: { anthropic: Anthropic; model: string; maxInputTokens: number } | null;
  /** every project's loaded automations config (read from GitHub for a project never read) */
  configs(): Promise<LoadedConfig[]>;
  leaseMs: number;
  heartbeatMs: number;
  /** docs pages of recently read docs commits, shared by this process's reviews */
  docsCache: DocsPagesCache;
}

/** A source pull request as its webhook delivery tells it. */
export interface SourcePullRequest {
  repository: string;
  installationId: number;
  number: number;
  headSha: string;
  baseRef: string;
  baseSha: string;
  defaultBranch: string;
  /** GitHub's count of changed files: more than its file listing reaches (3,000) is said on the check */
  changedFiles: number;
}
