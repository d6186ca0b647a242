import type { InstallationOctokit } from '../github/github-app.js';
import { statusOf } from '../github/github-app.js';
import type { ChangedFile } from './impact/find-impact.js';

/** GitHub lists at most 3,000 files of a pull request, 100 a page. */
const PER_PAGE = 100;
export const GITHUB_LISTED_FILES = 3_000;
/** A deleted file GitHub sends no patch for is read at the base when it is at most this big (its names count as removed). */
const MAX_REMOVED_TEXT = 512 * 1024;

export interface PullRequestFiles {
  files: ChangedFile[];
  /** files the pull request changes that GitHub's listing does not reach (beyond its 3,000) */
  unlisted: number;
}

/**
 * The pull request's changed files as GitHub lists them (paginated), read through the API so a pull request from a
 * fork needs no access to the fork. Every patch is kept: the impact analysis applies the file and size limits and
 * names what it left out. A deleted file with no patch (GitHub leaves out large ones) is read at the base commit, up
 * to 512 KB and while within `maxFiles` and `maxBytes`, so its exported names count as removed; a binary one stays
 * without text.
 */
export async function readPullRequestFiles(params: {
  octokit: InstallationOctokit;
  repository: string;
  number: number;
  baseSha: string;
  changedFiles: number;
  maxFiles: number;
  maxBytes: number;
}): Promise<PullRequestFiles> {
  const { octokit } = params;
  const [owner, repo] = params.repository.split('/');
  const files: ChangedFile[] = [];
  let bytes = 0;
  const pages = Math.ceil(Math.min(params.changedFiles, GITHUB_LISTED_FILES) / PER_PAGE);
  for (let page = 1; page <= Math.max(pages, 1); page++) {
    const { data } = await octokit.rest.pulls.listFiles({
      owner,
      repo,
      pull_number: params.number,
      per_page: PER_PAGE,
      page,
    });
    for (const f of data)
      files.push({
        filename: f.filename,
        status: f.status,
        ...(f.previous_filename ? { previousFilename: f.previous_filename } : {}),
        ...(f.patch !== undefined ? { patch: f.patch } : {}),
      });
    if (data.length < PER_PAGE) break;
  }
  for (const [index, file] of files.entries()) {
    bytes += Buffer.byteLength(file.patch ?? '');
    if (index >= params.maxFiles || bytes >= params.maxBytes) break;
    if (file.status !== 'removed' || file.patch !== undefined) continue;
    const text = await readAtBase({ octokit, owner, repo, path: file.filename, ref: params.baseSha });
    if (text !== null) {
      file.removedText = text;
      bytes += Buffer.byteLength(text);
    }
  }
  return { files, unlisted: Math.max(0, params.changedFiles - files.length) };
}

async function readAtBase(params: {
  octokit: InstallationOctokit;
  owner: string;
  repo: string;
  path: string;
  ref: string;
}): Promise<string | null> {
  try {
    const { data } = await params.octokit.rest.repos.getContent({
      owner: params.owner,
      repo: params.repo,
      path: params.path,
      ref: params.ref,
    });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data) || data.size > MAX_REMOVED_TEXT)
      return null;
    const content = Buffer.from(data.content, 'base64');
    // a NUL byte in the first 8 KB: binary, as git decides
    if (content.subarray(0, 8192).includes(0)) return null;
    return content.toString('utf8');
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}
