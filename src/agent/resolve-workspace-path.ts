import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The one gate between a path the model (or repository content) names and the file system.
 * Every file tool and every repository read the agent does goes through `resolveWorkspacePath`;
 * no tool checks paths on its own.
 */

export interface FileSizeLimits {
  /** Largest file the agent may read (view, search, checks). */
  maxReadBytes: number;
  /** Largest file content the agent may write. */
  maxWriteBytes: number;
}

/** Docs pages are small; anything bigger is generated output or a binary the model should not load into context. */
export const DEFAULT_FILE_SIZE_LIMITS: FileSizeLimits = {
  maxReadBytes: 512 * 1024,
  maxWriteBytes: 512 * 1024,
};

/** A refusal the model can act on; tools turn it into an `is_error` tool result. */
export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspacePathError';
  }
}

export interface ResolveOptions {
  /** The caller will read the file: refuse it if it is larger than `limits.maxReadBytes`. */
  read?: boolean;
  /** The caller will write this many bytes: refuse if larger than `limits.maxWriteBytes`. */
  writeBytes?: number;
  /** Whether the workspace root itself is an acceptable answer (directory views and searches). */
  allowRoot?: boolean;
  limits?: FileSizeLimits;
}

export interface WorkspacePath {
  /** Real absolute path (symlinks resolved) inside the workspace. */
  absolute: string;
  /** The same path relative to the workspace root, with `/` separators; `''` for the root. */
  relative: string;
  /** Whether something exists at the path now. */
  exists: boolean;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Real path of `target`: the deepest ancestor that exists is resolved with realpath (so a symlinked
 * directory anywhere on the way counts where it really points) and the missing tail is appended.
 */
async function realPathOf(target: string): Promise<{ real: string; exists: boolean }> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return { real: path.join(real, ...missing), exists: missing.length === 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR')
        throw new WorkspacePathError(`${path.basename(current)}: a parent of this path is a file, not a directory.`);
      if (code === 'ELOOP')
        throw new WorkspacePathError(`${path.basename(current)}: too many levels of symbolic links.`);
      if (code !== 'ENOENT') throw error;
      // A dangling symlink would make a later write land wherever it points, possibly outside.
      const link = await fs.lstat(current).catch(() => undefined);
      if (link?.isSymbolicLink())
        throw new WorkspacePathError(
          `${path.basename(current)} is a symbolic link to a missing target; refusing to use it.`,
        );
      const parent = path.dirname(current);
      if (parent === current) throw error;
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolve `requested` (relative to the workspace, or absolute inside it) to a real path inside the
 * workspace, or throw WorkspacePathError. Refuses: empty paths and NUL bytes, anything that resolves
 * outside the workspace (`..`, absolute paths elsewhere, symlinks — files or directories — pointing
 * out), anything under `.git`, and reads/writes above the size limits.
 */
export async function resolveWorkspacePath(
  workspaceDir: string,
  requested: string,
  options: ResolveOptions = {},
): Promise<WorkspacePath> {
  const limits = options.limits ?? DEFAULT_FILE_SIZE_LIMITS;
  if (typeof requested !== 'string' || requested.trim() === '') throw new WorkspacePathError('A path is required.');
  if (requested.includes('\0')) throw new WorkspacePathError('The path contains a NUL byte.');

  const root = await fs.realpath(path.resolve(workspaceDir));
  const lexicalRoot = path.resolve(workspaceDir);
  let candidate = path.resolve(lexicalRoot, requested);
  // Accept absolute paths spelled through either the given or the real workspace directory.
  if (!isInside(lexicalRoot, candidate) && isInside(root, candidate))
    candidate = path.resolve(root, path.relative(root, candidate));
  if (!isInside(lexicalRoot, candidate) && !isInside(root, candidate)) {
    throw new WorkspacePathError(`${requested} is outside the repository; use paths relative to the repository root.`);
  }

  const { real, exists } = await realPathOf(candidate);
  if (!isInside(root, real))
    throw new WorkspacePathError(`${requested} resolves outside the repository (through a symbolic link); refusing.`);

  const relative = path.relative(root, real).split(path.sep).join('/');
  if (relative.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    throw new WorkspacePathError(`${requested} is inside .git; the repository's git metadata is off limits.`);
  }
  if (relative === '' && !options.allowRoot)
    throw new WorkspacePathError('This operation needs a file path, not the repository root.');

  if (options.read && exists) {
    const stat = await fs.stat(real);
    if (stat.isFile() && stat.size > limits.maxReadBytes) {
      throw new WorkspacePathError(
        `${relative} is ${stat.size} bytes, above the ${limits.maxReadBytes}-byte read limit.`,
      );
    }
  }
  if (options.writeBytes !== undefined && options.writeBytes > limits.maxWriteBytes) {
    throw new WorkspacePathError(
      `Refusing to write ${options.writeBytes} bytes to ${relative}: above the ${limits.maxWriteBytes}-byte write limit.`,
    );
  }
  return { absolute: real, relative, exists };
}
