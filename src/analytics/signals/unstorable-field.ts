import { unstorableText } from '../../db/storable-text.js';

/**
 * The first of a submission's verbatim text fields that cannot be stored as given (a NUL, an unpaired surrogate), as
 * its rejection ("contact: must not contain …"); undefined when all can. Such an item is refused on its own: sent to
 * PostgreSQL it would fail the statement, and the batch's transaction with it.
 */
export function unstorableField(fields: Record<string, string | null | undefined>): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
    const problem = typeof value === 'string' ? unstorableText(value) : undefined;
    if (problem !== undefined) return `${name}: ${problem}`;
  }
  return undefined;
}
