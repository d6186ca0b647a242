import { parse as parseYaml } from 'yaml';
import picomatch from 'picomatch';
import { CronError, parseCron, timezoneProblem } from './cron.js';

export const CONFIG_PATH = '.scribe/automations.yml';

export type AutomationTrigger =
  | { kind: 'push'; repository: string; branches: string[] | null; paths: string[] | null }
  | ScheduleTrigger
  | FeedbackTrigger
  | PullRequestTrigger
  | ProblemsTrigger;

/**
 * Problems of the queue (src/problems): every open problem of `problemKind` that at least `minReaders` readers ran
 * into is fixed by the automation's job, batched into its open pull request.
 */
export interface ProblemsTrigger {
  kind: 'problems';
  problemKind: ProblemKindName;
  minReaders: number;
}

/**
 * The problems queue's kinds, as a config names them (src/problems/problem-kinds.ts holds the same list; the
 * automations cannot import it, as the problems module starts their runs).
 */
export const PROBLEM_KIND_NAMES = ['missing-page', 'negative-feedback', 'search-gap', 'stale-page'] as const;
export type ProblemKindName = (typeof PROBLEM_KIND_NAMES)[number];
/** a threshold beyond any docs site's readers of one problem; larger is almost certainly a typo */
export const MAX_MIN_READERS = 1_000_000;

/** A cron expression read in `timezone` (an IANA name, `timezone:` beside `on:` in the config; UTC by default). */
export interface ScheduleTrigger {
  kind: 'schedule';
  cron: string;
  /** always set by the parser; absent from configs stored before schedules had a time zone, which were UTC */
  timezone?: string;
}

/** A source repository's pull requests: each matching one gets the `Scribe docs` check (src/reviews/). */
export interface PullRequestTrigger {
  kind: 'pull_request';
  repository: string;
  /** base branches; null: the repository's default branch */
  branches: string[] | null;
  /** globs on changed paths; null: every pull request */
  paths: string[] | null;
}

/** How a pull_request automation reports: `review:` in the config, defaults filled in. */
export interface ReviewOptions {
  /** also one comment on the pull request, edited in place, when pages are found */
  comment: boolean;
  /** conclude the check `failure` instead of `neutral` when pages are found */
  block: boolean;
}

/** Reader feedback on a docs page: N thumbs-down since the page's last feedback run, and/or any new comment. */
export interface FeedbackTrigger {
  kind: 'feedback';
  thumbsDown: number | null;
  comment: boolean;
  /** globs on the page path ("/guides/**"); null: every page */
  pages: string[] | null;
}

export interface Automation {
  id: string;
  on: AutomationTrigger;
  prompt: string;
  draft: boolean;
  /** set on pull_request automations only */
  review?: ReviewOptions;
  /** `outcome:` in the config; absent means the defaults (an outcome comment on each merged docs pull request) */
  outcome?: OutcomeOptions;
}

/** What Scribe does with the outcome of the automation's merged docs pull requests (src/outcomes). */
export interface OutcomeOptions {
  /** the comment on the pull request when its 7-day window completes, edited at 28 days */
  comment: boolean;
}

/** Why an automation (or the whole file, when `automation` is null) did not load. */
export interface ConfigProblem {
  automation: string | null;
  message: string;
  /**
   * the source repository a pull_request automation that did not load names (when it names one): its pull requests
   * get a neutral check saying why, rather than silence (kept in the stored config, not shown by the API)
   */
  pullRequestRepository?: string;
}

const ID = /^[a-z0-9-]{1,64}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const MAX_PROMPT = 10_000;
const MAX_AUTOMATIONS = 50;
/** a threshold beyond any docs page's feedback; larger is almost certainly a typo */
export const MAX_THUMBS_DOWN = 10_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function unknownKeys(value: Record<string, unknown>, allowed: string[], where: string): string[] {
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => `${where}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
}

/** A glob picomatch accepts with strict brackets, relative, and without `..` segments. */
export function globProblem(glob: unknown): string | null {
  if (typeof glob !== 'string' || !glob.trim()) return 'a path pattern must be a non-empty string';
  if (glob.startsWith('/')) return `path pattern "${glob}" must be relative to the repository root`;
  if (glob.split('/').includes('..')) return `path pattern "${glob}" must not contain ".."`;
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
  } catch (err) {
    return `path pattern "${glob}" is not a valid glob: ${(err as Error).message}`;
  }
  return null;
}

/** A glob on page paths as feedback stores them: absolute, without `..` segments, valid with strict brackets. */
export function pageGlobProblem(glob: unknown): string | null {
  if (typeof glob !== 'string' || !glob.trim()) return 'a page pattern must be a non-empty string';
  if (!glob.startsWith('/')) return `page pattern "${glob}" must start with "/" (page paths do, e.g. "/guides/**")`;
  if (glob.split('/').includes('..')) return `page pattern "${glob}" must not contain ".."`;
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
  } catch (err) {
    return `page pattern "${glob}" is not a valid glob: ${(err as Error).message}`;
  }
  return null;
}

function stringList(value: unknown, what: string, problems: string[]): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.length || value.some((v) => typeof v !== 'string' || !v.trim())) {
    problems.push(`${what} must be a non-empty list of strings`);
    return null;
  }
  return value as string[];
}

function parseFeedback(feedback: unknown, problems: string[]): FeedbackTrigger | null {
  if (!isObject(feedback)) {
    problems.push('on.feedback must be a mapping with "thumbsDown" and/or "comment"');
    return null;
  }
  problems.push(...unknownKeys(feedback, ['thumbsDown', 'comment', 'pages'], 'on.feedback'));
  const { thumbsDown, comment } = feedback;
  if (
    thumbsDown !== undefined &&
    !(Number.isInteger(thumbsDown) && (thumbsDown as number) >= 1 && (thumbsDown as number) <= MAX_THUMBS_DOWN)
  ) {
    problems.push(`on.feedback.thumbsDown must be a whole number from 1 to ${MAX_THUMBS_DOWN}`);
  }
  if (comment !== undefined && typeof comment !== 'boolean') problems.push('on.feedback.comment must be true or false');
  if (thumbsDown === undefined && comment !== true)
    problems.push('on.feedback needs "thumbsDown: <n>" or "comment: true", or nothing would trigger it');
  const pages = stringList(feedback.pages, 'on.feedback.pages', problems);
  for (const glob of pages ?? []) {
    const problem = pageGlobProblem(glob);
    if (problem) problems.push(`on.feedback.pages: ${problem}`);
  }
  return {
    kind: 'feedback',
    thumbsDown: typeof thumbsDown === 'number' ? thumbsDown : null,
    comment: comment === true,
    pages,
  };
}

function parseProblems(value: unknown, problems: string[]): ProblemsTrigger | null {
  if (!isObject(value)) {
    problems.push('on.problems must be a mapping with "kind" and "minReaders"');
    return null;
  }
  problems.push(...unknownKeys(value, ['kind', 'minReaders'], 'on.problems'));
  const { kind, minReaders } = value;
  if (!PROBLEM_KIND_NAMES.includes(kind as ProblemKindName))
    problems.push(`on.problems.kind must be one of ${PROBLEM_KIND_NAMES.join(', ')}`);
  if (
    minReaders !== undefined &&
    !(Number.isInteger(minReaders) && (minReaders as number) >= 1 && (minReaders as number) <= MAX_MIN_READERS)
  )
    problems.push(`on.problems.minReaders must be a whole number from 1 to ${MAX_MIN_READERS}`);
  return {
    kind: 'problems',
    problemKind: kind as ProblemKindName,
    minReaders: typeof minReaders === 'number' ? minReaders : 1,
  };
}

/** `on.push` and `on.pull_request` share their shape: a repository, optional branches and path globs. */
function parseRepositoryTrigger(
  value: unknown,
  key: 'push' | 'pull_request',
  problems: string[],
): { repository: string; branches: string[] | null; paths: string[] | null } | null {
  if (!isObject(value)) {
    problems.push(`on.${key} must be a mapping with "repository"`);
    return null;
  }
  problems.push(...unknownKeys(value, ['repository', 'branches', 'paths'], `on.${key}`));
  if (typeof value.repository !== 'string' || !REPOSITORY.test(value.repository))
    problems.push(`on.${key}.repository must be owner/name`);
  const branches = stringList(value.branches, `on.${key}.branches`, problems);
  const paths = stringList(value.paths, `on.${key}.paths`, problems);
  for (const glob of paths ?? []) {
    const problem = globProblem(glob);
    if (problem) problems.push(`on.${key}.paths: ${problem}`);
  }
  return { repository: String(value.repository), branches, paths };
}

function parseReview(review: unknown, problems: string[]): ReviewOptions {
  if (review === undefined) return { comment: false, block: false };
  if (!isObject(review)) {
    problems.push('review must be a mapping with "comment" and/or "block"');
    return { comment: false, block: false };
  }
  problems.push(...unknownKeys(review, ['comment', 'block'], 'review'));
  for (const key of ['comment', 'block'])
    if (review[key] !== undefined && typeof review[key] !== 'boolean')
      problems.push(`review.${key} must be true or false`);
  return { comment: review.comment === true, block: review.block === true };
}

function parseOutcome(outcome: unknown, problems: string[]): OutcomeOptions | undefined {
  if (outcome === undefined) return undefined;
  if (!isObject(outcome)) {
    problems.push('outcome must be a mapping with "comment"');
    return undefined;
  }
  problems.push(...unknownKeys(outcome, ['comment'], 'outcome'));
  if (outcome.comment !== undefined && typeof outcome.comment !== 'boolean')
    problems.push('outcome.comment must be true or false');
  return { comment: outcome.comment !== false };
}

const TRIGGERS = ['push', 'schedule', 'feedback', 'pull_request', 'problems'];
const TRIGGER_LIST = '"push", "schedule", "feedback", "pull_request" or "problems"';

function parseSchedule(schedule: unknown, timezone: unknown, problems: string[]): ScheduleTrigger | null {
  const zone = timezone ?? 'UTC';
  const zoneProblem = timezoneProblem(zone);
  if (zoneProblem) {
    problems.push(zoneProblem);
    return null;
  }
  try {
    parseCron(schedule, zone as string);
  } catch (err) {
    if (!(err instanceof CronError)) throw err;
    problems.push(`schedule: ${err.message}`);
    return null;
  }
  return { kind: 'schedule', cron: (schedule as string).trim(), timezone: zone as string };
}

function parseTrigger(on: unknown, timezone: unknown, problems: string[]): AutomationTrigger | null {
  if (!isObject(on)) {
    problems.push(`"on" must be a mapping with ${TRIGGER_LIST}`);
    return null;
  }
  problems.push(...unknownKeys(on, TRIGGERS, 'on'));
  if (TRIGGERS.filter((t) => on[t] !== undefined).length !== 1) {
    problems.push(`"on" must have exactly one of ${TRIGGER_LIST}`);
    return null;
  }
  if (on.feedback !== undefined) return parseFeedback(on.feedback, problems);
  if (on.problems !== undefined) return parseProblems(on.problems, problems);
  if (on.schedule !== undefined) return parseSchedule(on.schedule, timezone, problems);
  if (on.pull_request !== undefined) {
    const pr = parseRepositoryTrigger(on.pull_request, 'pull_request', problems);
    return pr && { kind: 'pull_request', ...pr };
  }
  const push = parseRepositoryTrigger(on.push, 'push', problems);
  return push && { kind: 'push', ...push };
}

/**
 * `.scribe/automations.yml` read into the automations that load and the problems of those that do not; whether a
 * push or pull_request repository can be reached is checked by the caller, which has the GitHub App. Pure.
 */
export function parseAutomationsConfig(text: string): { automations: Automation[]; problems: ConfigProblem[] } {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return {
      automations: [],
      problems: [
        { automation: null, message: `${CONFIG_PATH} is not valid YAML: ${(err as Error).message.split('\n')[0]}` },
      ],
    };
  }
  if (doc === null || doc === undefined) return { automations: [], problems: [] };
  if (!isObject(doc) || !Array.isArray(doc.automations)) {
    return {
      automations: [],
      problems: [{ automation: null, message: `${CONFIG_PATH} must be a mapping with an "automations" list` }],
    };
  }
  const problems: ConfigProblem[] = unknownKeys(doc, ['automations'], CONFIG_PATH).map((message) => ({
    automation: null,
    message,
  }));
  const automations: Automation[] = [];
  const seen = new Set<string>();
  doc.automations.forEach((entry: unknown, index: number) => {
    const label = isObject(entry) && typeof entry.id === 'string' ? entry.id : `#${index + 1}`;
    const own: string[] = [];
    if (index >= MAX_AUTOMATIONS) own.push(`at most ${MAX_AUTOMATIONS} automations per project`);
    if (!isObject(entry)) {
      problems.push({ automation: label, message: 'each automation must be a mapping' });
      return;
    }
    own.push(
      ...unknownKeys(entry, ['id', 'on', 'timezone', 'prompt', 'draft', 'review', 'outcome'], `automation ${label}`),
    );
    if (typeof entry.id !== 'string' || !ID.test(entry.id)) own.push('id must match [a-z0-9-]{1,64}');
    else if (seen.has(entry.id)) own.push(`id "${entry.id}" is used twice`);
    const trigger = parseTrigger(entry.on, entry.timezone, own);
    if (typeof entry.prompt !== 'string' || !entry.prompt.trim()) own.push('prompt must be a non-empty string');
    else if (entry.prompt.length > MAX_PROMPT) own.push(`prompt must be at most ${MAX_PROMPT} characters`);
    if (entry.draft !== undefined && typeof entry.draft !== 'boolean') own.push('draft must be true or false');
    const review = trigger?.kind === 'pull_request' ? parseReview(entry.review, own) : undefined;
    const outcome = parseOutcome(entry.outcome, own);
    if (entry.review !== undefined && trigger && trigger.kind !== 'pull_request')
      own.push('review applies to pull_request automations only');
    if (entry.timezone !== undefined && trigger && trigger.kind !== 'schedule')
      own.push('timezone applies to schedule automations only');
    if (typeof entry.id === 'string') seen.add(entry.id);
    if (own.length || !trigger) {
      const pr = isObject(entry.on) && isObject(entry.on.pull_request) ? entry.on.pull_request.repository : undefined;
      const named = typeof pr === 'string' && REPOSITORY.test(pr) ? { pullRequestRepository: pr } : {};
      problems.push(...own.map((message) => ({ automation: label, message, ...named })));
      return;
    }
    automations.push({
      id: entry.id as string,
      on: trigger,
      prompt: (entry.prompt as string).trim(),
      draft: entry.draft === true,
      ...(review ? { review } : {}),
      ...(outcome ? { outcome } : {}),
    });
  });
  return { automations, problems };
}
