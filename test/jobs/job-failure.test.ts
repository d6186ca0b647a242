import { AgentError } from '../../src/agent/agent-error.js';
import { GitFailure } from '../../src/git/workspace.js';
import { GitHubAppError } from '../../src/github/github-app.js';
import { describeFailure, JobFailure } from '../../src/jobs/job-failure.js';

const ctx = { repository: 'acme/docs', baseRef: 'main', branch: 'scribe/abc-fix' };

describe('describeFailure', () => {
  it('keeps the agent’s own sentence and stage', () => {
    const failure = describeFailure(
      new AgentError('The model API is overloaded; try later.', 'overloaded'),
      'agent',
      ctx,
    );
    expect(failure).toEqual(
      expect.objectContaining({ stage: 'agent', message: 'The model API is overloaded; try later.' }),
    );
    expect(describeFailure(new AgentError('', 'overloaded'), 'agent', ctx).message).toMatch(
      /overloaded after several retries/,
    );
  });

  it('says what to do about git failures, by stage', () => {
    expect(describeFailure(new GitFailure('remote: GH006 …', 'rejected'), 'push', ctx).message).toMatch(
      /^GitHub rejected the push to scribe\/abc-fix in acme\/docs \(branch protection/,
    );
    expect(describeFailure(new GitFailure('403', 'auth'), 'push', ctx).message).toMatch(/may not push to acme\/docs/);
    expect(describeFailure(new GitFailure('not found', 'auth'), 'clone', ctx).message).toMatch(
      /cannot read acme\/docs: install the app/,
    );
    expect(describeFailure(new GitFailure('Remote branch main not found', 'not_found'), 'clone', ctx).message).toMatch(
      /Branch main was not found in acme\/docs/,
    );
  });

  it('maps GitHub API answers: no access, bad App credentials, pull request errors', () => {
    expect(describeFailure(Object.assign(new Error('Not Found'), { status: 404 }), 'github', ctx).message).toMatch(
      /cannot access acme\/docs/,
    );
    expect(describeFailure(Object.assign(new Error('Bad credentials'), { status: 401 }), 'clone', ctx).message).toMatch(
      /check APP_ID and PRIVATE_KEY/,
    );
    expect(
      describeFailure(Object.assign(new Error('Validation Failed'), { status: 422 }), 'pull_request', ctx).message,
    ).toMatch(/Could not open the pull request .* \(GitHub answered 422: Validation Failed\)/);
    expect(
      describeFailure(new GitHubAppError('The GitHub App is not installed on acme/docs: install it'), 'github', ctx)
        .message,
    ).toBe('The GitHub App is not installed on acme/docs: install it');
    const kept = new JobFailure('commit', 'as is');
    expect(describeFailure(kept, 'push', ctx)).toBe(kept);
  });
});
