/** What a problem is about, each derived from one family of stored signals (see derive-problems.ts). */
export const PROBLEM_KINDS = ['missing-page', 'negative-feedback', 'search-gap', 'stale-page'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/**
 * Where the work on a problem stands: the only thing stored per problem (problem-store.ts). `open` is what a problem
 * with no stored state is; `fixed` once the pull request of its job merged, then `verified` or `regressed` once the
 * merge's outcome (src/outcomes) shows the problem's signal improved or got worse.
 */
export const PROBLEM_STATUSES = ['open', 'in_progress', 'fixed', 'verified', 'regressed', 'dismissed'] as const;
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];

/** The most problems one fix may name: one agent job has to read them all in its prompt. */
export const MAX_FIX_PROBLEMS = 50;
