import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { outgoingWebhookRoutes } from '../../src/http/routes/outgoing-webhooks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('scribe webhook … (the public API as a client)', () => {
  let app: TestApp;
  let projectId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: [outgoingWebhookRoutes({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] })],
    });
    projectId = (await app.project()).id;
    env = {
      SCRIBE_URL: app.url,
      SCRIBE_API_KEY: await app.key(projectId, 'write'),
      DATABASE_URL: 'file:/nonexistent-dir-not-used/x.db',
    };
  });
  afterAll(async () => {
    await app.close();
  });

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(argv, io, env);
    return { code, out, err };
  };

  it('adds a subscription (secret shown once), lists it, pings it, shows its deliveries and removes it', async () => {
    const added = await run([
      'webhook',
      'add',
      'https://hooks.example.test/ci',
      '--project',
      projectId,
      '--event',
      'job.created',
      '--event',
      'job.status_changed',
    ]);
    expect(added.code).toBe(0);
    const id =
      /^subscription (whk_\w+) sends job\.created, job\.status_changed to https:\/\/hooks\.example\.test\/ci$/.exec(
        added.out[0],
      )?.[1];
    expect(id).toBeDefined();
    expect(added.out.at(-1)).toMatch(/^whsec_/);

    const listed = await run(['webhook', 'list', '--project', projectId]);
    expect(listed.out).toEqual([`${id}\thttps://hooks.example.test/ci\tjob.created,job.status_changed\tenabled`]);

    const pinged = await run(['webhook', 'test', id!, '--project', projectId]);
    const deliveryId = /queued as (msg_\w+)/.exec(pinged.out[0])?.[1];
    const deliveries = await run(['webhook', 'deliveries', id!, '--project', projectId]);
    expect(deliveries.out[0].split('\t').slice(0, 2)).toEqual([deliveryId, 'ping']);
    expect(deliveries.out[0]).toMatch(/\tpending\ttries 0\tlast -/);

    expect((await run(['webhook', 'remove', id!, '--project', projectId])).out).toEqual([`removed ${id}`]);
    expect((await run(['webhook', 'list', '--project', projectId])).out).toEqual(['no subscriptions']);
  });

  it('says what the server refused, and what is missing from the command', async () => {
    const refused = await run(['webhook', 'add', 'http://hooks.example.test/x', '--project', projectId]);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/HTTP 400: url: must be https/);
    const unknown = await run([
      'webhook',
      'add',
      'https://hooks.example.test/x',
      '--project',
      projectId,
      '--event',
      'nope',
    ]);
    expect(unknown.err[0]).toMatch(/unknown event "nope"/);
    const missing = await run(['webhook', 'remove', '--project', projectId]);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/give the subscription id/);
  });
});
