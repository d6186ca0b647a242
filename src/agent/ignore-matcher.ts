import picomatch from 'picomatch';

/**
 * A matcher for gitignore-style patterns (`.mintignore` uses the same syntax): `#` comments, `!`
 * negation (the last matching pattern wins), a leading or inner `/` anchors a pattern to the base
 * directory, a trailing `/` matches directories only, and a pattern without a slash matches at any
 * depth. Paths are `/`-separated and relative to the base directory.
 */
export function ignoreMatcher(patterns: readonly string[]): (relative: string) => boolean {
  const rules = patterns
    .map((raw) => raw.replace(/(?<!\\)\s+$/, ''))
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      let pattern = (negated ? line.slice(1) : line).replace(/^\\/, '');
      const directoryOnly = pattern.endsWith('/');
      pattern = pattern.replace(/\/+$/, '');
      const anchored = pattern.includes('/');
      pattern = pattern.replace(/^\//, '');
      const base = anchored ? pattern : `**/${pattern}`;
      // A file matches a directory pattern through any of its parent directories.
      const globs = directoryOnly ? [`${base}/**`] : [base, `${base}/**`];
      return { negated, match: picomatch(globs, { dot: true }) };
    });
  return (relative) => {
    let ignored = false;
    for (const rule of rules) if (rule.match(relative)) ignored = !rule.negated;
    return ignored;
  };
}
