import type { Command, CommandContext } from './command.js';
import { UsageError } from './command.js';
import { ApiCallError, createApiClient, type ScribeApiClient } from './scribe-api-client.js';

interface Job {
  id: string;
  status: 'active' | 'completed' | 'archived' | 'failed';
  source: { repository: string; ref: string };
  model: string;
  prLink: string | null;
  createdAt: string;
  error: string | null;
  summary: string | null;
  usage: { inputTokens: number; outputTokens: number };
}
interface JobEvent {
  id: number;
  type: string;
  createdAt: string;
  [field: string]: unknown;
}

type Measured = {
  humanVisitors: { before: number; after: number; ratio: number | null };
  aiVisitors: { before: number; after: number };
  aiVisitorsByPurpose?: Record<string, { before: number; after: number }>;
  thumbsUp: { before: number; after: number };
  thumbsDown: { before: number; after: number };
  comments: { before: number; after: number };
  misses: { before: number; after: number };
  verdict: string;
};
interface Outcome {
  mergedAt: string;
  liveAt: string;
  verdict: string;
  windows: {
    days: number;
    status: string;
    daysSoFar: number;
    total: Measured;
    pages: (Measured & { path: string; change: string })[];
    searches?: { gaps: { query: string; before: SearchSide; after: SearchSide; change: string }[] };
  }[];
}
type SearchSide = { clickThrough: number | null };

const POLL_MS = 1000;

const percent = (side: SearchSide) => (side.clickThrough === null ? '–' : `${Math.round(side.clickThrough * 100)}%`);

/** An outcome as lines: the verdict, then each window's totals, its pages and the search gaps it was to fix. */
export function describeOutcome(outcome: Outcome): string[] {
  const side = (m: Measured) =>
    `humans ${m.humanVisitors.before} → ${m.humanVisitors.after}${m.humanVisitors.ratio === null ? '' : ` (×${m.humanVisitors.ratio.toFixed(2)})`}` +
    `  AI ${m.aiVisitors.before} → ${m.aiVisitors.after}  misses ${m.misses.before} → ${m.misses.after}` +
    `  thumbs ${m.thumbsUp.before}/${m.thumbsDown.before} → ${m.thumbsUp.after}/${m.thumbsDown.after}` +
    `  comments ${m.comments.before} → ${m.comments.after}  ${m.verdict}`;
  const lines = [`verdict: ${outcome.verdict}  (merged ${outcome.mergedAt}, live ${outcome.liveAt})`];
  for (const w of outcome.windows) {
    const status = w.status === 'partial' ? `partial, ${w.daysSoFar} days so far` : w.status;
    lines.push(`${w.days} days (${status}): ${side(w.total)}`);
    // the AI visitors of the pages together by purpose, those with any on either side
    const purposes = Object.entries(w.total.aiVisitorsByPurpose ?? {}).filter(([, c]) => c.before || c.after);
    if (purposes.length)
      lines.push(`  AI by purpose: ${purposes.map(([p, c]) => `${p} ${c.before} → ${c.after}`).join('  ')}`);
    for (const page of w.pages) lines.push(`  ${page.path} (${page.change}): ${side(page)}`);
    // the search gaps the job was started to fix: each query's click-through into the pages
    for (const gap of w.searches?.gaps ?? [])
      lines.push(
        `  search ${JSON.stringify(gap.query)}: ${percent(gap.before)} → ${percent(gap.after)}  ${gap.change}`,
      );
  }
  return lines;
}

/** One readable line per job event: time, type, then its fields. */
export function formatEvent(event: JobEvent): string {
  const { id: _id, type, createdAt, ...fields } = event;
  const detail = Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const line = `${createdAt.slice(11, 19)}  ${type.padEnd(10)} ${detail}`;
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function describeJob(job: Job): string[] {
  return [
    `job ${job.id}  ${job.status}`,
    `  repository ${job.source.repository}  branch ${job.source.ref}  model ${job.model}`,
    `  created ${job.createdAt}  tokens in ${job.usage.inputTokens} out ${job.usage.outputTokens}`,
    ...(job.summary ? [`  summary: ${job.summary}`] : []),
    ...(job.error ? [`  error: ${job.error}`] : []),
    `  pull request: ${job.prLink ?? '-'}`,
  ];
}

export function projectOption(values: CommandContext['values']): string {
  if (typeof values.project !== 'string' || !values.project) throw new UsageError('--project <id> is required');
  return encodeURIComponent(values.project);
}

/** Prints events as they arrive until the job leaves `active`; returns the final job. */
async function followJob(api: ScribeApiClient, base: string, jobId: string, out: (line: string) => void): Promise<Job> {
  let after = 0;
  for (;;) {
    const { events, status } = await api.get<{ events: JobEvent[]; status: Job['status'] }>(
      `${base}/job/${jobId}/events?after=${after}`,
    );
    for (const event of events) {
      out(formatEvent(event));
      after = event.id;
    }
    if (status !== 'active') return api.get<Job>(`${base}/job/${jobId}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function withApi<T>(ctx: CommandContext, fn: (api: ScribeApiClient) => Promise<T>): Promise<T> {
  try {
    return await fn(createApiClient(ctx.config.client));
  } catch (err) {
    if (err instanceof ApiCallError) throw new JobCommandFailed(err.message);
    throw err;
  }
}

export class JobCommandFailed extends Error {}

export const jobCommands: Record<string, Command> = {
  'job create': {
    usage: 'job create --project <id> "<prompt>" [--ref <branch>] [--draft] [--wait]',
    summary:
      "Creates an agent job through the public API (SCRIBE_URL, SCRIBE_API_KEY) and prints the job id as the last line. With --wait it streams the job's events to stderr and prints the pull request link (or why nothing changed) at the end; exit 1 if the job failed.",
    options: {
      project: { type: 'string' },
      ref: { type: 'string' },
      draft: { type: 'boolean' },
      wait: { type: 'boolean' },
    },
    async run(ctx) {
      const base = `/v2/agent/${projectOption(ctx.values)}`;
      const prompt = ctx.positionals.join(' ').trim();
      if (!prompt) throw new UsageError('give the instruction as the argument, in quotes');
      await withApi(ctx, async (api) => {
        const job = await api.post<Job>(`${base}/job`, {
          prompt,
          ...(typeof ctx.values.ref === 'string' ? { ref: ctx.values.ref } : {}),
          ...(ctx.values.draft ? { draft: true } : {}),
        });
        ctx.io.out(`created job ${job.id} on ${job.source.repository} (branch ${job.source.ref})`);
        if (!ctx.values.wait) {
          ctx.io.out(job.id);
          return;
        }
        const final = await followJob(api, base, job.id, ctx.io.err);
        if (final.status === 'failed')
          throw new JobCommandFailed(`job ${final.id} failed: ${final.error ?? 'no reason given'}`);
        ctx.io.out(
          final.status === 'archived'
            ? `job ${final.id} was archived`
            : final.prLink
              ? final.prLink
              : `job ${final.id} completed without changes: ${final.summary ?? ''}`.trim(),
        );
      });
    },
  },
  'job list': {
    usage: 'job list --project <id> [--status active|completed|archived|failed] [--limit <n>]',
    summary: 'Jobs newest first: id, status, created, pull request link, summary or error.',
    options: { project: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } },
    async run(ctx) {
      const base = `/v2/agent/${projectOption(ctx.values)}`;
      const query = new URLSearchParams();
      if (typeof ctx.values.status === 'string') query.set('status', ctx.values.status);
      if (typeof ctx.values.limit === 'string') query.set('limit', ctx.values.limit);
      await withApi(ctx, async (api) => {
        const { jobs, hasMore } = await api.get<{ jobs: (Job & { prompt?: string })[]; hasMore: boolean }>(
          `${base}/jobs${query.size ? `?${query}` : ''}`,
        );
        if (!jobs.length) ctx.io.out('no jobs');
        for (const job of jobs)
          ctx.io.out(
            `${job.id}\t${job.status}\t${job.createdAt}\t${job.prLink ?? '-'}\t${(job.summary ?? job.error ?? '').slice(0, 80)}`,
          );
        if (hasMore) ctx.io.out('(more: raise --limit)');
      });
    },
  },
  'job outcome': {
    usage: 'job outcome <id> --project <id>',
    summary:
      "Did the job's docs pull request help: readers, AI visitors, misses and thumbs of the pages it changed over 7, 14 and 28 days before and after it went live, each window's status and the verdict.",
    options: { project: { type: 'string' } },
    async run(ctx) {
      const base = `/v2/agent/${projectOption(ctx.values)}`;
      const [jobId] = ctx.positionals;
      if (!jobId) throw new UsageError('give the job id');
      await withApi(ctx, async (api) => {
        const job = await api.get<Job & { outcome: Outcome | null }>(`${base}/job/${encodeURIComponent(jobId)}`);
        if (!job.outcome) {
          ctx.io.out(`job ${job.id}: no outcome yet (its pull request has not merged)`);
          return;
        }
        for (const line of describeOutcome(job.outcome)) ctx.io.out(line);
      });
    },
  },
  'job show': {
    usage: 'job show <id> --project <id>',
    summary: 'The job and its whole event log.',
    options: { project: { type: 'string' } },
    async run(ctx) {
      const base = `/v2/agent/${projectOption(ctx.values)}`;
      const [jobId] = ctx.positionals;
      if (!jobId) throw new UsageError('give the job id');
      await withApi(ctx, async (api) => {
        const job = await api.get<Job>(`${base}/job/${encodeURIComponent(jobId)}`);
        for (const line of describeJob(job)) ctx.io.out(line);
        const { events } = await api.get<{ events: JobEvent[] }>(`${base}/job/${encodeURIComponent(jobId)}/events`);
        ctx.io.out(`events (${events.length}):`);
        for (const event of events) ctx.io.out(`  ${formatEvent(event)}`);
      });
    },
  },
};
