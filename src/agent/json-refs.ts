import path from 'node:path';

/** One JSON file of a config split with `$ref`: its parsed value, or why there is none. */
export interface JsonFile {
  value?: unknown;
  /** The file exists but is not valid JSON. */
  error?: string;
  missing?: boolean;
}

/** The config file and every file its `$ref`s reach, by repository path. */
export type JsonFiles = Map<string, JsonFile>;

const MAX_FILES = 200;

/** `$ref` paths are relative to the file that holds them (Mintlify resolves nested references that way). */
export function refTarget(fromFile: string, ref: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), ref.replace(/^\/+/, '')));
}

/** Every `$ref` string in a JSON value. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!value || typeof value !== 'object') return [];
  const own = typeof (value as { $ref?: unknown }).$ref === 'string' ? [(value as { $ref: string }).$ref] : [];
  return [...own, ...Object.values(value).flatMap(refsIn)];
}

/** Read `rootFile` and, transitively, every file it references with `$ref`. */
export async function loadJsonWithRefs(
  rootFile: string,
  read: (file: string) => Promise<string | undefined>,
): Promise<JsonFiles> {
  const files: JsonFiles = new Map();
  const queue = [rootFile];
  while (queue.length > 0 && files.size < MAX_FILES) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    const text = await read(file);
    if (text === undefined) {
      files.set(file, { missing: true });
      continue;
    }
    try {
      const value: unknown = JSON.parse(text);
      files.set(file, { value });
      for (const ref of refsIn(value)) queue.push(refTarget(file, ref));
    } catch (error) {
      files.set(file, { error: (error as Error).message });
    }
  }
  return files;
}

/**
 * The config with every `$ref` object replaced by the referenced file's value; sibling keys of a `$ref`
 * override the referenced object's keys. Unresolvable references are left out.
 */
export function resolveJsonRefs(files: JsonFiles, rootFile: string): unknown {
  const resolve = (value: unknown, file: string, depth: number): unknown => {
    if (depth > 32) return undefined;
    if (Array.isArray(value)) return value.map((item) => resolve(item, file, depth));
    if (!value || typeof value !== 'object') return value;
    const { $ref, ...rest } = value as Record<string, unknown>;
    const siblings = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, resolve(child, file, depth)]));
    if (typeof $ref !== 'string') return siblings;
    const target = refTarget(file, $ref);
    const referenced = resolve(files.get(target)?.value, target, depth + 1);
    if (referenced && typeof referenced === 'object' && !Array.isArray(referenced))
      return { ...referenced, ...siblings };
    return Object.keys(siblings).length > 0 ? siblings : referenced;
  };
  return resolve(files.get(rootFile)?.value, rootFile, 0);
}
