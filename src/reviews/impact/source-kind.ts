/**
 * What a changed file of the source repository is, for the identifier extractors. Pure.
 * Tests, lock files, generated bundles and the source repository's own prose are left out: what they name is not
 * behaviour a docs site describes (and a removed test helper documented nowhere is noise at best).
 */
export type Language = 'ts' | 'python' | 'go' | 'rust' | 'java' | 'ruby' | 'shell' | 'other';
export type SourceKind =
  | { kind: 'code'; language: Language }
  | { kind: 'config'; format: 'yaml' | 'json' | 'toml' | 'ini' | 'env' }
  | { kind: 'skip' };

const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec|specs|testdata|fixtures|__mocks__)\/|(\.|_)(test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.go$|(^|\/)conftest\.py$/i;
const LOCK_FILE =
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock|uv\.lock)$/;
const GENERATED = /(^|\/)(dist|build|vendor|node_modules|target)\/|\.min\.(js|css)$|\.generated\.|(^|\/)CHANGELOG/i;
const PROSE = /\.(md|mdx|markdown|rst|txt|adoc)$/i;
// Manifests list dependencies by name: a package name in the docs is not a sign the page went stale.
const MANIFEST =
  /(^|\/)(package\.json|composer\.json|Cargo\.toml|pyproject\.toml|go\.mod|requirements[^/]*\.txt|Gemfile)$/;

const LANGUAGES: [RegExp, Language][] = [
  [/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i, 'ts'],
  [/\.pyi?$/i, 'python'],
  [/\.go$/i, 'go'],
  [/\.rs$/i, 'rust'],
  [/\.(java|kt|kts|scala|cs)$/i, 'java'],
  [/\.rb$/i, 'ruby'],
  [/\.(sh|bash|zsh)$|(^|\/)Dockerfile$|(^|\/)Makefile$/i, 'shell'],
];

export function sourceKind(filename: string): SourceKind {
  if (TEST_PATH.test(filename) || LOCK_FILE.test(filename) || GENERATED.test(filename) || PROSE.test(filename))
    return { kind: 'skip' };
  if (MANIFEST.test(filename)) return { kind: 'skip' };
  if (/\.ya?ml$/i.test(filename)) return { kind: 'config', format: 'yaml' };
  if (/\.json5?$/i.test(filename)) return { kind: 'config', format: 'json' };
  if (/\.toml$/i.test(filename)) return { kind: 'config', format: 'toml' };
  if (/\.(ini|cfg|conf|properties)$/i.test(filename)) return { kind: 'config', format: 'ini' };
  if (/(^|\/)\.env(\.[\w-]+)?$|\.env\.(example|sample|template)$/i.test(filename))
    return { kind: 'config', format: 'env' };
  for (const [pattern, language] of LANGUAGES) if (pattern.test(filename)) return { kind: 'code', language };
  return { kind: 'code', language: 'other' };
}
