import { createHash } from 'node:crypto';
import type { Logger } from '../logger.js';
import { findProject } from '../projects/projects.js';
import type { LoadedConfig } from '../automations/config-store.js';
import type { Automation, ProblemsTrigger } from '../automations/parse-config.js';
import { startRun, type StartRunDeps } from '../automations/start-run.js';
import { fixPrompt } from './fix-prompt.js';
import { fixCause } from './fix-cause.js';
import { assignJob } from './problem-store.js';
import type { Problems } from './problems.js';

/** How often the problems automations look at the queue: problems move with days of traffic, not seconds. */
export const PROBLEM_AUTOMATIONS_EVERY_MS = 10 * 60_000;

type ProblemsAutomation = Automation & { on: ProblemsTrigger };

/**
 * `on: problems` automations: each project's open problems of the automation's kind that at least `minReaders` readers
 * ran into become one run (keyed by the set, so the same problems start nothing twice), carried out by the
 * automation's job — its open pull request takes them as a follow-up (one pull request per automation), or a new
 * job does — and each problem is `in_progress` with that job. Returns what it did, a line per run.
 */
export async function runProblemAutomations(
  deps: StartRunDeps & { problems: Problems; configs: () => Promise<LoadedConfig[]>; logger: Logger },
): Promise<string[]> {
  const said: string[] = [];
  for (const config of await deps.configs()) {
    const automations = config.automations.filter((a): a is ProblemsAutomation => a.on.kind === 'problems');
    if (!automations.length) continue;
    const project = await findProject(deps.db, config.projectId);
    if (!project || project.disabledAt) continue;
    for (const automation of automations) {
      try {
        const { problemKind, minReaders } = automation.on;
        const open = await deps.problems.list(project, { kinds: [problemKind], statuses: ['open'], limit: 100 });
        const due = open.problems.filter((p) => p.readers >= minReaders);
        if (!due.length) continue;
        const ids = due.map((p) => p.id).sort();
        const run = await startRun(deps, {
          project,
          automation,
          request: {
            trigger: 'problems',
            dedupeKey: `problems ${createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 32)}`,
            change: fixPrompt(due),
            summary: `${due.length} ${problemKind} problem${due.length === 1 ? '' : 's'} with at least ${minReaders} readers`,
            cause: fixCause(due),
          },
        });
        if (run?.jobId)
          await assignJob({ db: deps.db, clock: deps.clock, projectId: project.id, problems: due, jobId: run.jobId });
        said.push(`${project.id}/${automation.id}: ${run ? `run ${run.id} (${run.status})` : 'already started'}`);
      } catch (err) {
        deps.logger.error({ err, project: project.id, automation: automation.id }, 'a problems automation failed');
      }
    }
  }
  return said;
}
