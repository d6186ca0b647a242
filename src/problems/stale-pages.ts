import type { Db } from '../db/client.js';
import type { TimeRange } from '../calendar.js';
import type { ProblemSignals } from '../analytics/reports/problem-signals.js';
import { jobsThatChanged } from '../jobs/jobs-that-changed.js';
import { mergedFindings } from '../reviews/source-merges.js';
import { previousRange } from './derive-problems.js';
import { problemId } from './problem-id.js';
import type { DerivedProblem, StalePageEvidence } from './problem.js';
import type { SitePage } from './redirect-candidates.js';

/**
 * Pages a docs review of a source pull request named, once that pull request merged (before the range ends), that
 * no Scribe docs pull request changed since the review: the code moved and the page did not. Readers are the page's
 * visitors in the range (human and AI); the merge is when it was first and last seen, so a dismissal holds until
 * another merge names the page again.
 */
export async function stalePageProblems(params: {
  db: Db;
  signals: ProblemSignals;
  projectId: string;
  range: TimeRange;
  pages: () => Promise<SitePage[]>;
}): Promise<DerivedProblem[]> {
  const { db, signals, projectId, range } = params;
  const merged = (await mergedFindings(db, projectId)).filter((m) => m.mergedAt.getTime() < range.to);
  if (!merged.length) return [];
  const pages = await params.pages();
  const found: DerivedProblem[] = [];
  for (const pull of merged) {
    const byFile = new Map<string, typeof pull.findings>();
    for (const f of pull.findings) byFile.set(f.page, [...(byFile.get(f.page) ?? []), f]);
    for (const [file, findings] of byFile) {
      const changed = await jobsThatChanged(db, { projectId, file, limit: 50 });
      if (changed.some((job) => job.createdAt >= pull.reviewedAt)) continue;
      const path = pages.find((p) => p.file === file)?.path ?? `/${file}`;
      const [now, before] = await Promise.all([
        signals.pageTraffic({ projectId, path, range }),
        signals.pageTraffic({ projectId, path, range: previousRange(range) }),
      ]);
      const evidence: StalePageEvidence = {
        repository: pull.repository,
        number: pull.number,
        mergedAt: pull.mergedAt.toISOString(),
        findings: findings.map((f) => ({
          line: f.line,
          identifier: f.identifier,
          change: f.change === 'renamed' && f.renamedTo ? `renamed to ${f.renamedTo}` : f.change,
          reason: f.reason ?? null,
        })),
      };
      found.push({
        id: problemId('stale-page', `${pull.repository}#${pull.number} ${file}`),
        kind: 'stale-page',
        title: `${path} may be stale after ${pull.repository}#${pull.number}`,
        paths: [path],
        readers: now.totals.human + now.totals.ai,
        previousReaders: before.totals.human + before.totals.ai,
        firstSeen: pull.mergedAt.getTime(),
        lastSeen: pull.mergedAt.getTime(),
        evidence,
      });
    }
  }
  return found;
}
