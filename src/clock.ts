/** Injectable time, so tests can fix "now". */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/**
 * Waits until every promise of `pending` has settled or `ms` has passed, whichever comes first (a caller that gives
 * lookups a moment to finish, then goes on with what is known).
 */
export async function waitAtMost(pending: readonly Promise<unknown>[], ms: number): Promise<void> {
  if (!pending.length || ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(pending),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
