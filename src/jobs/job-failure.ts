import { AgentError } from '../agent/agent-error.js';
import { GitFailure } from '../git/workspace.js';
import { GitHubAppError, statusOf } from '../github/github-app.js';
import type { JobStage } from './job-status.js';

/** Why a run failed, as the sentence a user reads in the job's `error`, and the stage it failed in. */
export class JobFailure extends Error {
  constructor(
    readonly stage: JobStage,
    message: string,
  ) {
    super(message);
  }
}

const AGENT_REASONS: Record<AgentError['reason'], string> = {
  overloaded: 'The model API stayed overloaded after several retries; send a follow-up message to try again later',
  limits:
    'The agent reached its limits (turns, tokens or time) before finishing; split the prompt into smaller requests or raise SCRIBE_MAX_TURNS, SCRIBE_MAX_TOKENS or SCRIBE_JOB_TIMEOUT',
  refusal: 'The model declined this request; rephrase the prompt',
  context: "The conversation outgrew the model's context window; split the prompt into smaller requests",
  aborted: 'The agent was stopped before it finished',
  model_error: 'The model API returned an error',
};

export interface FailureContext {
  repository: string;
  baseRef: string;
  branch: string;
}

/** Turns whatever a stage threw into a JobFailure a user can act on. */
export function describeFailure(err: unknown, stage: JobStage, ctx: FailureContext): JobFailure {
  if (err instanceof JobFailure) return err;
  if (err instanceof AgentError) {
    // The agent phrases its own errors for the job's user; the table covers an agent that left the message empty.
    return new JobFailure('agent', err.message.trim() || AGENT_REASONS[err.reason] || 'The agent failed');
  }
  if (err instanceof GitHubAppError) return new JobFailure(stage, err.message);
  if (err instanceof GitFailure) {
    if (stage === 'push') {
      if (err.kind === 'rejected') {
        return new JobFailure(
          stage,
          `GitHub rejected the push to ${ctx.branch} in ${ctx.repository} (branch protection or a push rule): allow the GitHub App to push scribe/* branches. Git said: ${err.message}`,
        );
      }
      if (err.kind === 'auth')
        return new JobFailure(
          stage,
          `The GitHub App installation may not push to ${ctx.repository}: grant it "Contents: write" permission`,
        );
    }
    if (err.kind === 'auth')
      return new JobFailure(
        stage,
        `The GitHub App installation cannot read ${ctx.repository}: install the app on that repository or grant it access`,
      );
    if (err.kind === 'not_found')
      return new JobFailure(
        stage,
        `Branch ${ctx.baseRef} was not found in ${ctx.repository}: check the project's ref or the job's ref`,
      );
    return new JobFailure(stage, `Git failed during ${stage}: ${err.message}`);
  }
  const status = statusOf(err);
  if (stage === 'github' && (status === 404 || status === 403)) {
    return new JobFailure(
      stage,
      `The GitHub App installation cannot access ${ctx.repository}: install the app on that repository or grant it access`,
    );
  }
  if (stage === 'pull_request') {
    const message = (err as Error)?.message ?? String(err);
    return new JobFailure(
      stage,
      `Could not open the pull request for ${ctx.branch} in ${ctx.repository} (GitHub answered ${status ?? 'an error'}: ${message.slice(0, 300)})`,
    );
  }
  if (status === 401) return new JobFailure(stage, 'GitHub refused the App credentials: check APP_ID and PRIVATE_KEY');
  const message = (err as Error)?.message ?? String(err);
  return new JobFailure(stage, `Unexpected error during ${stage}: ${message.slice(0, 300)}`);
}
