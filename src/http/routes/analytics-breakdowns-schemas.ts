import { z } from 'zod';

/** Response shapes of the dashboard's breakdown routes (routes/analytics-breakdowns.ts), as zod schemas. */

export const DailyVisitorsResponse = z.object({
  days: z.array(z.object({ date: z.string(), human: z.number().int(), ai: z.number().int(), total: z.number().int() })),
});
export const AgentsResponse = z.object({
  agents: z.array(
    z.object({
      agent: z.string(),
      kind: z.enum(['crawler', 'search', 'assistant', 'agent', 'unknown']),
      visitors: z.number().int(),
      views: z.number().int(),
    }),
  ),
});
