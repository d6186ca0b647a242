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
      visitors: z.number().int().describe('distinct visitors of the agent over the range'),
      verifiedVisitors: z
        .number()
        .int()
        .describe(
          "visitors seen at least once in the range from inside a fresh authoritative list of the agent's operator (or confirmed by forward-confirmed reverse DNS)",
        ),
      unverifiableVisitors: z
        .number()
        .int()
        .describe(
          'the other visitors (never verified in the range: the operator publishes no usable list, or the list is stale); verifiedVisitors + unverifiableVisitors = visitors',
        ),
      views: z.number().int(),
      verifiedViews: z
        .object({
          signature: z.number().int().describe("signed with Web Bot Auth by a key of the operator's directory"),
          ipRange: z.number().int().describe("from inside the operator's fresh published address list"),
          reverseDns: z.number().int().describe('confirmed by forward-confirmed reverse DNS'),
        })
        .describe("the agent's views by how they were verified; the rest of views are unverifiable"),
    }),
  ),
  spoofed: z
    .array(
      z.object({
        agent: z.string().describe('the AI agent the user agent claimed to be'),
        visitors: z.number().int(),
        views: z.number().int(),
      }),
    )
    .describe(
      "AI user agents from outside their operator's fresh published ranges, or whose Web Bot Auth signature failed (spoofed): counted neither as AI nor as human; most visitors first",
    ),
});
