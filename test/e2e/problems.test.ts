import fs from 'node:fs';
import { edit, reply, text } from '../support/anthropic-server.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { forTask } from '../support/e2e-harness.js';
import { examplePayload, pullRequestPayload, startGitHubE2E, type GitHubE2E } from '../support/github-harness.js';
import { GPTBOT_RANGE, writeRangesFile } from '../support/ai-traffic.js';

const INSTALLATION = 91;
const DOCS_REPO = 'acme/docs';
const CONFIG = {
  name: 'Acme',
  navigation: [{ group: 'Start', pages: ['index', 'guides/quickstart', 'guides/billing'] }],
};
const DOCS = {
  'docs.json': `${JSON.stringify(CONFIG, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme docs\n',
  'guides/quickstart.mdx': '---\ntitle: Quickstart\n---\n\nInstall the CLI.\n',
  'guides/billing.mdx': '---\ntitle: Billing\n---\n\nInvoices.\n',
};
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-Code/1.0)';

/** A combined-log line of yesterday, at `second` past 10:00 UTC. */
function line(ip: string, path: string, ua: string, second: number): string {
  const d = new Date(Date.now() - 86_400_000);
  const month = d.toLocaleString('en', { month: 'short', timeZone: 'UTC' });
  const date = `${String(d.getUTCDate()).padStart(2, '0')}/${month}/${d.getUTCFullYear()}`;
  return `${ip} - - [${date}:10:00:${String(second).padStart(2, '0')} +0000] "GET ${path} HTTP/1.1" 404 512 "-" "${ua}"`;
}

describe.each(PROVIDERS)('from AI agents hitting a 404 to a merged redirect, on %s', (provider) => {
  let e2e: GitHubE2E;
  let ranges: ReturnType<typeof writeRangesFile>;
  let projectId: string;
  let key: string;

  beforeAll(async () => {
    ranges = writeRangesFile();
    e2e = await startGitHubE2E(provider, { SCRIBE_AI_RANGES_FILE: ranges.file, SCRIBE_AI_REVERSE_DNS: 'off' });
    e2e.github.createRepository(DOCS_REPO, DOCS);
    e2e.github.addInstallation(INSTALLATION, [DOCS_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    key = await e2e.keyFor(projectId);
  });
  afterAll(async () => {
    await e2e?.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });

  it('traffic with AI 404s → a problem with a candidate → a fix job whose pull request adds the redirect → merged → fixed', async () => {
    const agentIp = GPTBOT_RANGE.replace('0/24', '7');
    const log = [
      line(agentIp, '/guides/quick-start', GPTBOT, 1),
      line(agentIp, '/guides/quick-start?utm=1', GPTBOT, 2),
      line('198.51.100.4', '/guides/quick-start', CLAUDE, 3),
    ].join('\n');
    const imported = await fetch(`${e2e.scribe.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: `${log}\n`,
    });
    expect(imported.status).toBe(202);

    const listed = await e2e.api(`/v1/analytics/${projectId}/problems?kind=missing-page`, { key });
    expect(listed.status).toBe(200);
    const [problem] = listed.body.problems;
    expect(problem).toMatchObject({
      kind: 'missing-page',
      status: 'open',
      readers: 2,
      evidence: { url: '/guides/quick-start', requests: 3, aiReaders: 2, verifiedShare: 0.667 },
    });
    // the candidates are pages of the docs repository at its ref, read through the App
    expect(problem.evidence.candidates[0]).toMatchObject({
      path: '/guides/quickstart',
      file: 'guides/quickstart.mdx',
      title: 'Quickstart',
    });

    const redirected = `${JSON.stringify({ ...CONFIG, redirects: [{ source: '/guides/quick-start', destination: '/guides/quickstart' }] }, null, 2)}\n`;
    e2e.anthropic.script(
      [
        reply([edit({ command: 'create', path: 'docs.json', file_text: redirected })]),
        reply([text('Title: Redirect /guides/quick-start\n\nAdded a redirect to the quickstart.')]),
      ],
      forTask('/guides/quick-start'),
    );
    const fix = await e2e.api(`/v1/analytics/${projectId}/problems/fix`, { key, body: { ids: [problem.id] } });
    expect(fix.status).toBe(202);
    expect(fix.body.cause).toEqual({ problems: [{ id: problem.id, kind: 'missing-page', title: problem.title }] });
    const inProgress = await e2e.api(`/v1/analytics/${projectId}/problems`, { key });
    expect(inProgress.body.problems[0]).toMatchObject({ status: 'in_progress', jobId: fix.body.id });

    const job = await waitFor(
      async () => {
        const { body } = await e2e.api(`/v2/agent/${projectId}/job/${fix.body.id}`, { key });
        return body.status !== 'active' ? body : undefined;
      },
      'the fix job to finish',
      30_000,
      50,
    );
    expect(job).toMatchObject({ status: 'completed', error: null });
    const pr = e2e.github.pulls.find((p) => p.repository === DOCS_REPO && p.html_url === job.prLink)!;
    expect(JSON.parse(e2e.github.readFile(DOCS_REPO, pr.head, 'docs.json')!).redirects).toEqual([
      { source: '/guides/quick-start', destination: '/guides/quickstart' },
    ]);
    const prompt = e2e.anthropic.requests.find((r) => JSON.stringify(r.body.messages?.[0]).includes('quick-start'));
    expect(JSON.stringify(prompt?.body.messages?.[0])).toContain('/guides/quickstart (guides/quickstart.mdx');
    expect((await e2e.api(`/v1/analytics/${projectId}/problems`, { key })).body.problems[0].prLink).toBe(job.prLink);

    e2e.github.closePullRequest(DOCS_REPO, pr.number, true);
    const delivery = await e2e.send(
      'pull_request',
      pullRequestPayload({
        action: 'closed',
        repository: DOCS_REPO,
        installationId: INSTALLATION,
        pull: e2e.github.pullJson(DOCS_REPO, pr.number),
      }),
    );
    expect(delivery.status).toBe('done');
    const fixed = await e2e.api(`/v1/analytics/${projectId}/problems`, { key });
    expect(fixed.body.problems[0]).toMatchObject({ id: problem.id, status: 'fixed', jobId: job.id });
  });
});
