import type { InstallationOctokit } from '../github/github-app.js';
import { findJobByPullRequest } from '../jobs/job-store.js';
import { postReply } from '../conversations/post-reply.js';
import { DRAFT_ACTION, isDocsCheckName } from '../reviews/docs-check-run.js';
import { pagesInFindings, type DraftFindings } from '../reviews/draft-prompt.js';
import { hasWriteAccess } from './has-write-access.js';
import { isBot } from './parse-mention.js';
import type { Mention } from './read-mention.js';
import { refusal } from './refusal.js';
import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/** `@<slug> docs` (any case, nothing else asked) on a source pull request asks for a docs draft. */
export const isDocsCommand = (instruction: string) => /^docs[.!]?$/i.test(instruction.trim());

/**
 * check_run.requested_action `draft-docs` on a `Scribe docs` check run: the person who pressed it asks for a docs
 * draft of the check run's pull request. GitHub lists no pull request on check runs of pull requests from forks; the
 * open pull request whose head is the check run's commit is looked up instead.
 */
export async function handleCheckRun(deps: WebhookDeps, delivery: Delivery<'check_run'>): Promise<HandlerResult> {
  const { payload, octokit } = delivery;
  if (payload.action !== 'requested_action') return ignored(`check_run.${payload.action} needs nothing`);
  const identifier = (payload as { requested_action?: { identifier?: string } }).requested_action?.identifier;
  if (identifier !== DRAFT_ACTION) return ignored(`requested action ${identifier ?? '(none)'} is not Scribe's`);
  if (!isDocsCheckName(payload.check_run.name)) return ignored(`check run ${payload.check_run.name} is not Scribe's`);
  if (isBot(payload.sender)) return ignored('requested by a bot');
  if (!deps.docsDrafts) return ignored('docs drafts need agent jobs, which are not configured');
  const repository = payload.repository.full_name;
  const number =
    payload.check_run.pull_requests[0]?.number ??
    (await openPullWithHead(octokit, repository, payload.check_run.head_sha));
  if (!number) return ignored(`no open pull request has head ${payload.check_run.head_sha}`);
  const output = payload.check_run.output;
  const text = [output?.summary, output?.text].filter(Boolean).join('\n\n');
  const findings: DraftFindings | null = text ? { text, pages: pagesInFindings(text) } : null;
  return askForDraft({
    deps,
    octokit,
    repository,
    number,
    requester: payload.sender.login,
    findings,
    checkRunExternalId: payload.check_run.external_id || null,
  });
}

/**
 * `@<slug> docs` in a comment on a pull request that is not Scribe's own (there the mention is a follow-up): a docs
 * draft of that pull request. Null when the comment is for the follow-ups.
 */
export async function docsCommand(params: {
  deps: WebhookDeps;
  octokit: InstallationOctokit;
  mention: Mention;
  number: number;
}): Promise<HandlerResult | null> {
  const { deps, mention } = params;
  if (!isDocsCommand(mention.instruction) || !deps.docsDrafts) return null;
  if (await findJobByPullRequest({ db: deps.db, repository: mention.repository, number: params.number })) return null;
  return askForDraft({
    deps,
    octokit: params.octokit,
    repository: mention.repository,
    number: params.number,
    requester: mention.author,
    findings: null,
    checkRunExternalId: null,
  });
}

/** Only people with write access to the source repository may ask; the others are told so. */
async function askForDraft(params: {
  deps: WebhookDeps;
  octokit: InstallationOctokit;
  repository: string;
  number: number;
  requester: string;
  findings: DraftFindings | null;
  checkRunExternalId: string | null;
}): Promise<HandlerResult> {
  const { deps, octokit, repository, number, requester } = params;
  const reply = (body: string) => postReply({ octokit, repository, issueNumber: number, reviewCommentId: null, body });
  if (!(await hasWriteAccess({ octokit, repository, username: requester }))) {
    await reply(`@${requester} Only people with write access to ${repository} can ask Scribe for a docs draft.`);
    return done(`refused: ${requester} has no write access`);
  }
  try {
    const answer = await deps.docsDrafts!.request({
      repository,
      number,
      requester,
      octokit,
      findings: params.findings,
      checkRunExternalId: params.checkRunExternalId,
    });
    if (answer.reply) await reply(answer.reply);
    return done(answer.outcome);
  } catch (err) {
    const refused = refusal(requester, err);
    if (!refused) throw err;
    await reply(refused.reply);
    return done(refused.outcome);
  }
}

async function openPullWithHead(octokit: InstallationOctokit, repository: string, sha: string): Promise<number | null> {
  const [owner, repo] = repository.split('/');
  const open = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 });
  return open.find((p) => p.head.sha === sha)?.number ?? null;
}
