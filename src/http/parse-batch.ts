import type { z } from 'zod';
import { Invalid } from '../errors.js';
import type { Rejection } from '../analytics/ingest/batch-result.js';
import { zodDetails } from './parse-input.js';

/**
 * A batch body: a JSON array of at most `max` items, each validated on its own with `schema` — bad ones are refused
 * by index, not the request. `what` names the items in the 400's sentences ("a JSON array of events").
 */
export function parseBatch<S extends z.ZodType>(params: {
  body: unknown;
  schema: S;
  max: number;
  what?: string;
}): { valid: z.output<S>[]; indexes: number[]; invalid: Rejection[] } {
  const { body, schema, max, what } = params;
  if (!Array.isArray(body))
    throw new Invalid(`Body must be a JSON array${what ? ` of ${what}` : ''}`, [{ message: 'expected an array' }]);
  if (body.length > max)
    throw new Invalid(`At most ${max.toLocaleString('en')} ${what ?? 'items'} per request`, [
      { message: `got ${body.length}` },
    ]);
  const valid: z.output<S>[] = [];
  const indexes: number[] = [];
  const invalid: Rejection[] = [];
  body.forEach((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) {
      valid.push(result.data);
      indexes.push(index);
    } else
      invalid.push({
        index,
        error: zodDetails(result.error)
          .map((d) => d.message)
          .join('; '),
      });
  });
  return { valid, indexes, invalid };
}
