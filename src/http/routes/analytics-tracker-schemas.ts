import { z } from 'zod';

/** What the browser tracker posts. */
export const TrackerEvent = z.object({
  projectId: z.string().min(1).max(100),
  url: z.string().min(1).max(2048),
  referrer: z.string().max(2048).nullable().optional(),
});
