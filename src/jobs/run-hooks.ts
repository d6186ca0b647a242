import type { JobRecord } from './job-store.js';

/**
 * What a job run asks of the world outside jobs/, answered by the modules above it (wired in main.ts), so the runner
 * knows of GitHub comments and automations only through these four questions. A runner given none of them (a test,
 * a job asked for through the API alone) runs as if each answered nothing. What jobs/ tells the outside in turn (a
 * run ended, a job was archived) is in job-listeners.ts.
 */
export interface JobRunHooks {
  /**
   * Extra context for the message the run carries out, given to the agent with the task: the file and line of the
   * review comment the message came from; null for none. Implemented by the job replies (GitHub comments); called
   * once a run, at the `agent` stage, with the last message (`seq`) the run carries out.
   */
  messageContext(job: JobRecord, seq: number): Promise<string | null>;
  /**
   * Whether message `seq` came from a GitHub comment that gets a reply of its own, so the pull request needs no
   * separate follow-up comment. Implemented by the job replies; called at the `pull_request` stage of a follow-up run
   * that committed something, unless `pullRequestNotes` gave notes.
   */
  answeredOnGitHub(job: JobRecord, seq: number): Promise<boolean>;
  /**
   * The source repository and commit the run reads as read-only context (the push that started an automation's run),
   * cloned apart from the docs; null for none. Implemented by the automations; called once a run, after the docs
   * clone.
   */
  sourceFor(job: JobRecord): Promise<{ repository: string; sha: string } | null>;
  /**
   * What the pull request lists instead of the job's prompts (the source changes an automation's pull request
   * covers); null to list the prompts. Implemented by the automations; called at the `pull_request` stage.
   */
  pullRequestNotes(job: JobRecord): Promise<string | null>;
}
