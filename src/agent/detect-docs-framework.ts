import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { mkdocsDocsDir } from './navigation-pages.js';

export type DocsFramework = 'mintlify' | 'docusaurus' | 'mkdocs' | 'markdown';

export interface DocsLayout {
  framework: DocsFramework;
  /** The framework's config file, relative to the repository root. */
  configPath?: string;
  /** Directory pages and root-absolute links (`/guides/x`) are relative to; `''` is the repository root. */
  docsRoot: string;
}

/** Config files that mark a docs framework, in the order they are looked for: the first one present wins. */
export const DOCS_CONFIG_CANDIDATES: readonly { file: string; framework: DocsFramework }[] = [
  { file: 'docs.json', framework: 'mintlify' },
  { file: 'mint.json', framework: 'mintlify' },
  { file: 'docs/docs.json', framework: 'mintlify' },
  { file: 'docs/mint.json', framework: 'mintlify' },
  { file: 'docusaurus.config.ts', framework: 'docusaurus' },
  { file: 'docusaurus.config.js', framework: 'docusaurus' },
  { file: 'docusaurus.config.mjs', framework: 'docusaurus' },
  { file: 'docusaurus.config.cjs', framework: 'docusaurus' },
  { file: 'website/docusaurus.config.ts', framework: 'docusaurus' },
  { file: 'website/docusaurus.config.js', framework: 'docusaurus' },
  { file: 'mkdocs.yml', framework: 'mkdocs' },
  { file: 'mkdocs.yaml', framework: 'mkdocs' },
];

/** Repository text read through the path check: a symlinked config must not leak a file from outside. */
export async function readWorkspaceText(workspaceDir: string, relative: string): Promise<string | undefined> {
  try {
    const target = await resolveWorkspacePath(workspaceDir, relative, { read: true });
    if (!target.exists || !(await fs.stat(target.absolute)).isFile()) return undefined;
    return await fs.readFile(target.absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/** The layout a present config file gives. Pure: a caller that reads the repository another way uses it too. */
export function docsLayoutOf(candidate: { file: string; framework: DocsFramework }, text: string): DocsLayout {
  const { file, framework } = candidate;
  const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
  if (framework === 'mintlify') return { framework, configPath: file, docsRoot: dir };
  if (framework === 'mkdocs')
    return { framework, configPath: file, docsRoot: path.posix.join(dir, mkdocsDocsDir(text)) };
  return { framework, configPath: file, docsRoot: dir ? `${dir}/docs` : 'docs' };
}

export async function detectDocsFramework(workspaceDir: string): Promise<DocsLayout> {
  for (const candidate of DOCS_CONFIG_CANDIDATES) {
    const text = await readWorkspaceText(workspaceDir, candidate.file);
    if (text !== undefined) return docsLayoutOf(candidate, text);
  }
  return { framework: 'markdown', docsRoot: '' };
}
