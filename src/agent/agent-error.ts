import type { AgentErrorReason } from './types.js';

/** Why an agent run stopped without a result; `message` is a sentence the job's user can act on. */
export class AgentError extends Error {
  constructor(
    message: string,
    readonly reason: AgentErrorReason,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}
