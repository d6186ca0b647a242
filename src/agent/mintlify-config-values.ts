/**
 * docs.json fields whose values `mint validate` restricts to a fixed set (from the docs.json schema).
 * Only fields the build rejects are listed; a value the agent did not change is never reported.
 */
const ALLOWED: Record<string, readonly string[]> = {
  theme: ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'sequoia', 'luma'],
  'appearance.default': ['system', 'light', 'dark'],
  'icons.library': ['fontawesome', 'lucide', 'tabler'],
  'background.decoration': ['gradient', 'grid', 'windows'],
  'styling.eyebrows': ['section', 'breadcrumbs'],
  'thumbnails.appearance': ['light', 'dark'],
  'contextual.display': ['header', 'toc'],
  'api.playground.display': ['interactive', 'simple', 'none', 'auth'],
  'api.params.expanded': ['all', 'closed'],
  'api.examples.defaults': ['required', 'all'],
  'seo.indexing': ['navigable', 'all'],
};
const REQUIRED = ['name', 'theme', 'colors.primary', 'navigation'];
const COLORS = ['colors.primary', 'colors.light', 'colors.dark'];
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

function valueAt(config: unknown, dotted: string): unknown {
  let value = config;
  for (const key of dotted.split('.'))
    value =
      value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** What `mint validate` would reject in a docs.json (its `$ref`s resolved). Pure. */
export function mintlifyConfigValueProblems(config: unknown): string[] {
  const problems: string[] = [];
  for (const field of REQUIRED)
    if (valueAt(config, field) === undefined) problems.push(`the required "${field}" is missing.`);
  for (const [field, allowed] of Object.entries(ALLOWED)) {
    const value = valueAt(config, field);
    if (value !== undefined && !allowed.includes(value as string))
      problems.push(`"${field}" is ${JSON.stringify(value)}; it must be one of ${allowed.join(', ')}.`);
  }
  for (const field of COLORS) {
    const value = valueAt(config, field);
    if (value !== undefined && !(typeof value === 'string' && HEX.test(value)))
      problems.push(`"${field}" is ${JSON.stringify(value)}; it must be a hex colour such as "#0D9373".`);
  }
  return problems;
}
