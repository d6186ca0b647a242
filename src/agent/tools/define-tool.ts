import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolContext, ToolOutcome } from './tool-context.js';

export interface CustomTool<I> {
  definition: Anthropic.Tool;
  input: z.ZodType<I>;
  run: (input: I, context: ToolContext) => Promise<ToolOutcome>;
}

/** One custom tool: the zod schema validates the model's input and is also what the API is shown. */
export function defineTool<I>(spec: {
  name: string;
  description: string;
  input: z.ZodType<I>;
  run: CustomTool<I>['run'];
}): CustomTool<I> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(spec.input) as Record<string, unknown>;
  return {
    definition: { name: spec.name, description: spec.description, input_schema: schema as Anthropic.Tool.InputSchema },
    input: spec.input,
    run: spec.run,
  };
}
