import { createTestDatabase, type Provider } from './databases.js';
import { startGitHubHost, type GitHubHost } from './github-host.js';
import { startAnthropicStandIn, type AnthropicStandIn } from './anthropic-server.js';
import { scribeEnv } from './scribe-process.js';
import type { Database } from '../../src/db/client.js';

/** What a whole-service test runs Scribe against: the GitHub host and model stand-ins and a migrated database. */
export interface StandIns {
  github: GitHubHost;
  anthropic: AnthropicStandIn;
  database: Database & { drop(): Promise<void> };
  /** Scribe's environment pointing at them (fast polling, no GitHub write pacing, a public URL for links) */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startStandIns(provider: Provider): Promise<StandIns> {
  const github = await startGitHubHost();
  const anthropic = await startAnthropicStandIn();
  const database = await createTestDatabase(provider);
  return {
    github,
    anthropic,
    database,
    env: (extra = {}) =>
      scribeEnv({
        databaseUrl: database.target.url,
        github,
        anthropicUrl: anthropic.url,
        extra: {
          SCRIBE_GITHUB_THROTTLE: 'false',
          SCRIBE_JOB_POLL_SECONDS: '0.2',
          SCRIBE_JOB_HEARTBEAT_SECONDS: '0.3',
          SCRIBE_PUBLIC_URL: 'https://scribe.acme.test',
          ...extra,
        },
      }),
    async close() {
      await anthropic.close();
      await github.close();
      await database.drop();
    },
  };
}
