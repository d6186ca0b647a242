import { z } from 'zod';

/**
 * The answer of every batch ingest route (server-side events, feedback, searches): what src/analytics/ingest/
 * batch-result.ts builds.
 */
export const BatchIngestResponse = z.object({
  accepted: z.number().int(),
  /** of the accepted, how many repeated an id already stored (and were not stored again) */
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), error: z.string() })),
});
