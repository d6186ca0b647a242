import fs from 'node:fs/promises';
import type { FileSizeLimits, WorkspacePath } from '../resolve-workspace-path.js';

/** What every tool gets: where the workspace is, the size limits, and the record of what changed. */
export interface ToolContext {
  workspaceDir: string;
  /** the read-only source tree behind `source:` paths, when the run has one */
  sourceDir?: string;
  sizeLimits: FileSizeLimits;
  /**
   * Every path the agent changed (relative, `/`-separated) with its content before the first change
   * (`null`: it did not exist). The edit checks compare against it so that problems the repository
   * already had are not blamed on the agent.
   */
  originals: Map<string, string | null>;
}

/** What a tool says back to the model, plus what the step log shows. */
export interface ToolOutcome {
  content: string;
  /** Path(s) the call touched, for the job's event log. */
  path?: string;
}

/** A failure the model should see as an `is_error` tool result (and can fix). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Call before the first write to a path, so the original content is kept for the edit checks. */
export async function rememberOriginal(context: ToolContext, target: WorkspacePath): Promise<void> {
  if (context.originals.has(target.relative)) return;
  const before = target.exists ? await fs.readFile(target.absolute, 'utf8').catch(() => null) : null;
  context.originals.set(target.relative, before);
}
