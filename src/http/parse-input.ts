import type { z } from 'zod';
import { Invalid, type ErrorDetail } from '../errors.js';

/** zod issues as error details: "field: problem" (the bare problem where no field applies). */
export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    message:
      issue.code === 'unrecognized_keys' || issue.path.length === 0
        ? issue.message
        : `${issue.path.join('.')}: ${issue.message}`,
  }));
}

/** Validates request input with a route's zod schema; 400 `Invalid <what>` with one detail per problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new Invalid(`Invalid ${what}`, zodDetails(result.error));
}
