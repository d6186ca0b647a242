import type { ProblemKind, ProblemStatus } from './problem-kinds.js';

/** A page of the docs repository a missing URL could redirect to. */
export interface RedirectCandidate {
  /** as the site serves it */
  path: string;
  /** its file in the docs repository */
  file: string;
  title: string | null;
  /** 0–1 */
  score: number;
}

export interface MissingPageEvidence {
  url: string;
  requests: number;
  humanReaders: number;
  aiReaders: number;
  statuses: { status: number; requests: number }[];
  agents: { agent: string; requests: number; verified: number }[];
  verifiedShare: number | null;
  candidates: RedirectCandidate[];
}

export interface NegativeFeedbackEvidence {
  thumbsDown: number;
  thumbsUp: number;
  comments: { id: string; comment: string; helpful: boolean | null; createdAt: string }[];
}

export interface SearchGapEvidence {
  query: string;
  searches: number;
  clicks: number;
}

export interface StalePageEvidence {
  repository: string;
  number: number;
  mergedAt: string;
  findings: { line: number; identifier: string; change: string; reason: string | null }[];
}

export type Evidence = MissingPageEvidence | NegativeFeedbackEvidence | SearchGapEvidence | StalePageEvidence;

/** A problem as derived from the signals of a range, before its stored state is applied. */
export interface DerivedProblem {
  id: string;
  kind: ProblemKind;
  title: string;
  paths: string[];
  readers: number;
  previousReaders: number;
  /** epoch ms */
  firstSeen: number;
  lastSeen: number;
  evidence: Evidence;
}

/** A problem as the queue shows it: derived, with where the work on it stands. */
export interface Problem extends DerivedProblem {
  status: ProblemStatus;
  jobId: string | null;
  prLink: string | null;
  dismissal: { reason: string; at: Date } | null;
}
