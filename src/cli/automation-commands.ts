import type { Command } from './command.js';
import { UsageError } from './command.js';
import { projectOption, withApi } from './job-commands.js';

interface AutomationList {
  configSha: string | null;
  automations: {
    id: string;
    on: {
      kind: string;
      repository?: string;
      cron?: string;
      timezone?: string;
      paths?: string[] | null;
      thumbsDown?: number | null;
      comment?: boolean;
      pages?: string[] | null;
      branches?: string[] | null;
      problemKind?: string;
      minReaders?: number;
    };
    review?: { comment: boolean; block: boolean };
  }[];
  problems: { automation: string | null; message: string }[];
}
interface Run {
  id: string;
  automation: string;
  trigger: {
    kind: string;
    repository: string | null;
    before: string | null;
    after: string | null;
    page?: string | null;
    number?: number | null;
    headSha?: string | null;
  };
  status: string;
  reason: string | null;
  jobId: string | null;
  prLink: string | null;
  createdAt: string;
}

function describeTrigger(trigger: Run['trigger']): string {
  if (trigger.kind === 'feedback') return `feedback ${trigger.page}`;
  if (trigger.kind === 'pull_request')
    return `pull_request ${trigger.repository}#${trigger.number} ${trigger.headSha?.slice(0, 7) ?? ''}`.trim();
  if (trigger.kind !== 'push') return trigger.kind;
  return `push ${trigger.repository} ${trigger.before?.slice(0, 7)}..${trigger.after?.slice(0, 7)}`;
}

function describeOn(on: AutomationList['automations'][number]['on']): string {
  if (on.kind === 'push') return `push ${on.repository}${on.paths ? ` paths ${on.paths.join(',')}` : ''}`;
  if (on.kind === 'pull_request')
    return `pull requests to ${on.repository}${on.branches ? ` (${on.branches.join(',')})` : ''}${on.paths ? ` paths ${on.paths.join(',')}` : ''}`;
  if (on.kind === 'schedule') return `schedule "${on.cron}" (${on.timezone ?? 'UTC'})`;
  if (on.kind === 'problems') return `problems: ${on.problemKind} with at least ${on.minReaders} readers`;
  const when = [on.thumbsDown ? `${on.thumbsDown} thumbs-down` : '', on.comment ? 'a comment' : '']
    .filter(Boolean)
    .join(' or ');
  return `feedback: ${when}${on.pages ? ` on ${on.pages.join(',')}` : ''}`;
}

/** `scribe automation …`: the automations API through the same client the job commands use. */
export const automationCommands: Record<string, Command> = {
  'automation list': {
    usage: 'automation list --project <id>',
    summary:
      "The automations loaded from the docs repository's .scribe/automations.yml, and the problems of those that did not load.",
    options: { project: { type: 'string' } },
    async run(ctx) {
      await withApi(ctx, async (api) => {
        const list = await api.get<AutomationList>(`/v1/automations/${projectOption(ctx.values)}`);
        ctx.io.out(
          `config ${list.configSha ? `at ${list.configSha.slice(0, 7)}` : 'absent (.scribe/automations.yml on the default branch)'}`,
        );
        for (const a of list.automations) {
          const review = a.review ? [a.review.comment && 'comment', a.review.block && 'block'].filter(Boolean) : [];
          ctx.io.out(`${a.id}\t${describeOn(a.on)}${review.length ? ` (review: ${review.join(', ')})` : ''}`);
        }
        for (const p of list.problems) ctx.io.out(`not loaded: ${p.automation ?? '(file)'}: ${p.message}`);
      });
    },
  },
  'automation trigger': {
    usage: 'automation trigger <automation id> --project <id>',
    summary: 'Starts a run of an automation now and prints the run and its job.',
    options: { project: { type: 'string' } },
    async run(ctx) {
      const [automationId] = ctx.positionals;
      if (!automationId) throw new UsageError('give the automation id');
      await withApi(ctx, async (api) => {
        const started = await api.post<{ schemaId: string; instanceId: string; jobId: string | null }>(
          `/v1/workflow/${projectOption(ctx.values)}/${encodeURIComponent(automationId)}/trigger`,
        );
        ctx.io.out(
          started.jobId
            ? `run ${started.instanceId} started as job ${started.jobId}`
            : `run ${started.instanceId} was skipped (see automation runs)`,
        );
      });
    },
  },
  'automation runs': {
    usage: 'automation runs --project <id> [--automation <id>] [--limit <n>] [--offset <n>]',
    summary:
      'Runs newest first: id, automation, time, trigger, status (with the reason for skipped or failed runs), job, pull request link.',
    options: {
      project: { type: 'string' },
      automation: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
    },
    async run(ctx) {
      const query = new URLSearchParams();
      for (const name of ['automation', 'limit', 'offset'] as const)
        if (typeof ctx.values[name] === 'string') query.set(name, ctx.values[name] as string);
      await withApi(ctx, async (api) => {
        const { runs, total } = await api.get<{ runs: Run[]; total: number }>(
          `/v1/automations/${projectOption(ctx.values)}/runs${query.size ? `?${query}` : ''}`,
        );
        if (!runs.length) ctx.io.out('no runs');
        for (const run of runs) {
          ctx.io.out(
            `${run.id}\t${run.automation}\t${run.createdAt}\t${describeTrigger(run.trigger)}\t${run.status}${run.reason ? ` (${run.reason})` : ''}\t${run.jobId ?? '-'}\t${run.prLink ?? '-'}`,
          );
        }
        if (total > runs.length) ctx.io.out(`(${runs.length} of ${total}: use --limit and --offset)`);
      });
    },
  },
};
