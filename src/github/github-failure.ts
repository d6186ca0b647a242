import { Conflict, DomainError, Unavailable, UpstreamFailed } from '../errors.js';
import { GitHubAppError, statusOf } from './github-app.js';

/**
 * What a failed GitHub call means for a request that needed `what` (e.g. "the docs repository acme/docs"), as the
 * typed error the API answers with: the repository is out of the App's reach (404, 403: 409, the project's state),
 * the App's credentials are refused (401: 503, the sentence says what to check), or GitHub failed or could not be
 * reached (502). Anything that is not a GitHub answer or a failed call to GitHub comes back unchanged.
 */
export function gitHubFailure(err: unknown, what: string): unknown {
  if (err instanceof DomainError || !isGitHubError(err)) return err;
  const status = statusOf(err);
  const said = oneLine(err);
  const subject = what.charAt(0).toUpperCase() + what.slice(1);
  if (!hasResponse(err) && (status === undefined || status === 500))
    return new UpstreamFailed(`GitHub could not be reached while reading ${what} (${cause(err)}); try again later`);
  if (status === 404) return new Conflict(`${subject} was not found on GitHub (is the GitHub App installed on it?)`);
  if (status === 401)
    return new Unavailable(`GitHub refused the GitHub App's credentials (401: ${said}): check APP_ID and PRIVATE_KEY`);
  if (status === 403 && !/rate limit/i.test(said))
    return new Conflict(
      `GitHub refused the GitHub App access to ${what} (403: ${said}): check that the App is installed on it with Contents: read`,
    );
  return new UpstreamFailed(`GitHub answered ${status} while reading ${what} (${said}); try again later`);
}

/** Octokit's RequestError (an HTTP answer, or a call that never got one) or the App client's own GitHubAppError. */
function isGitHubError(err: unknown): boolean {
  if (err instanceof GitHubAppError) return true;
  const e = err as { name?: unknown; request?: unknown } | null;
  return !!e && (e.name === 'HttpError' || e.request !== undefined);
}

function hasResponse(err: unknown): boolean {
  return (err as { response?: unknown }).response !== undefined;
}

/** The deepest reason a call failed before any answer: `ECONNREFUSED`, a DNS failure, a reset connection. */
function cause(err: unknown): string {
  let reason = oneLine(err);
  for (let at = (err as { cause?: unknown }).cause; at; at = (at as { cause?: unknown }).cause) {
    const code = (at as { code?: unknown }).code;
    reason = typeof code === 'string' ? code : oneLine(at);
  }
  return reason;
}

function oneLine(err: unknown): string {
  const message = (err as { message?: unknown })?.message;
  return (typeof message === 'string' ? message : String(err)).replace(/\s+/g, ' ').trim().slice(0, 200);
}
