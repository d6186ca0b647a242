import type { Command } from './command.js';
import { UsageError } from './command.js';
import { projectOption, withApi } from './job-commands.js';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}
interface Delivery {
  id: string;
  type: string;
  status: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  tries: { at: string; durationMs: number; responseStatus: number | null; error: string | null }[];
}

const state = (s: Subscription) =>
  s.enabled
    ? s.failingSince
      ? `failing since ${s.failingSince}`
      : 'enabled'
    : `disabled${s.disabledReason ? ` (${s.disabledReason})` : ''}`;

const idArgument = (positionals: string[]) => {
  const [id] = positionals;
  if (!id) throw new UsageError('give the subscription id (scribe webhook list)');
  return encodeURIComponent(id);
};

/** `scribe webhook …`: outgoing webhook subscriptions through the public API, as the job commands use it. */
export const webhookCommands: Record<string, Command> = {
  'webhook add': {
    usage: 'webhook add <url> --project <id> [--event <type> …] [--description <text>]',
    summary:
      "Subscribes a URL to the project's events (every event without --event); prints the subscription and its signing secret, shown once.",
    options: {
      project: { type: 'string' },
      event: { type: 'string', multiple: true },
      description: { type: 'string' },
    },
    async run(ctx) {
      const [url] = ctx.positionals;
      if (!url) throw new UsageError('give the URL events are sent to');
      const events = (ctx.values.event as string[] | undefined) ?? ['*'];
      const description = ctx.values.description as string | undefined;
      await withApi(ctx, async (api) => {
        const created = await api.post<Subscription & { secret: string }>(`/v1/webhooks/${projectOption(ctx.values)}`, {
          url,
          events,
          ...(description ? { description } : {}),
        });
        ctx.io.out(`subscription ${created.id} sends ${created.events.join(', ')} to ${created.url}`);
        ctx.io.out('signing secret (shown once; verify deliveries with a Standard Webhooks library):');
        ctx.io.out(created.secret);
      });
    },
  },
  'webhook list': {
    usage: 'webhook list --project <id>',
    summary: "Lists the project's webhook subscriptions and their events (never their secrets).",
    options: { project: { type: 'string' } },
    async run(ctx) {
      await withApi(ctx, async (api) => {
        const { subscriptions } = await api.get<{ subscriptions: Subscription[] }>(
          `/v1/webhooks/${projectOption(ctx.values)}`,
        );
        if (!subscriptions.length) ctx.io.out('no subscriptions');
        for (const s of subscriptions) ctx.io.out(`${s.id}\t${s.url}\t${s.events.join(',')}\t${state(s)}`);
      });
    },
  },
  'webhook remove': {
    usage: 'webhook remove <subscription id> --project <id>',
    summary: 'Deletes a webhook subscription.',
    options: { project: { type: 'string' } },
    async run(ctx) {
      const id = idArgument(ctx.positionals);
      await withApi(ctx, async (api) => {
        await api.delete(`/v1/webhooks/${projectOption(ctx.values)}/${id}`);
        ctx.io.out(`removed ${decodeURIComponent(id)}`);
      });
    },
  },
  'webhook test': {
    usage: 'webhook test <subscription id> --project <id>',
    summary: "Sends a signed `ping` event to the subscription's URL.",
    options: { project: { type: 'string' } },
    async run(ctx) {
      const id = idArgument(ctx.positionals);
      await withApi(ctx, async (api) => {
        const ping = await api.post<{ deliveryId: string }>(`/v1/webhooks/${projectOption(ctx.values)}/${id}/test`);
        ctx.io.out(`ping queued as ${ping.deliveryId}; see scribe webhook deliveries ${decodeURIComponent(id)}`);
      });
    },
  },
  'webhook deliveries': {
    usage: 'webhook deliveries <subscription id> --project <id> [--limit <n>]',
    summary: "Lists a subscription's latest deliveries with their attempts.",
    options: { project: { type: 'string' }, limit: { type: 'string' } },
    async run(ctx) {
      const id = idArgument(ctx.positionals);
      const limit = typeof ctx.values.limit === 'string' ? `?limit=${encodeURIComponent(ctx.values.limit)}` : '';
      await withApi(ctx, async (api) => {
        const { deliveries, hasMore } = await api.get<{ deliveries: Delivery[]; hasMore: boolean }>(
          `/v1/webhooks/${projectOption(ctx.values)}/${id}/deliveries${limit}`,
        );
        if (!deliveries.length) ctx.io.out('no deliveries');
        for (const d of deliveries) {
          const last = d.tries.at(-1);
          const answer = last ? (last.responseStatus ?? last.error ?? '-') : '-';
          ctx.io.out(
            `${d.id}\t${d.type}\t${d.createdAt}\t${d.status}\ttries ${d.attempts}\tlast ${answer}${d.nextAttemptAt ? `\tnext ${d.nextAttemptAt}` : ''}`,
          );
        }
        if (hasMore) ctx.io.out('(more: use --limit)');
      });
    },
  },
};
