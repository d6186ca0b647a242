import type { ChangedFile } from './find-impact.js';

/**
 * GitHub's "list pull request files" items as findDocsImpact reads them. Pure. GitHub leaves `patch` out for binary
 * files and for diffs too large to show; such a file is still reviewed by name (a removed or renamed path).
 */
export interface PullRequestFileItem {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

const STATUSES: ReadonlySet<string> = new Set([
  'added',
  'removed',
  'modified',
  'renamed',
  'copied',
  'changed',
  'unchanged',
]);

export function changedFilesFromApi(items: readonly PullRequestFileItem[]): ChangedFile[] {
  return items.map((item) => ({
    filename: item.filename,
    // A status GitHub may add later reads as a modification: its lines are still what changed.
    status: (STATUSES.has(item.status) ? item.status : 'modified') as ChangedFile['status'],
    ...(item.previous_filename ? { previousFilename: item.previous_filename } : {}),
    ...(typeof item.patch === 'string' ? { patch: item.patch } : {}),
  }));
}
