import { deliveryProblem } from '../../src/webhooks/delivery-problem.js';
import { findDelivery } from '../../src/webhooks/deliveries.js';
import { PROVIDERS } from '../support/databases.js';
import { examplePayload, startGitHubE2E, type GitHubE2E } from '../support/github-harness.js';
import { connect, parseAnswer } from '../support/raw-http.js';

describe('what makes a signed request not a GitHub event', () => {
  const ok = { event: 'issue_comment', id: '72d3162e-cc78-11e3-81ab-4c9367dc0958' };
  it('accepts a real payload and names the first problem of a bad one', () => {
    expect(deliveryProblem({ ...ok, body: JSON.stringify(examplePayload('installation', 'created')) })).toBeUndefined();
    expect(deliveryProblem({ ...ok, body: '{"zen":"Keep it logically awesome."}' })).toBeUndefined();
    expect(deliveryProblem({ ...ok, body: 'null' })).toBe('the payload must be a JSON object');
    expect(deliveryProblem({ ...ok, body: '"x"' })).toBe('the payload must be a JSON object');
    expect(deliveryProblem({ ...ok, body: '[1]' })).toBe('the payload must be a JSON object');
    expect(deliveryProblem({ ...ok, body: '{"a":' })).toBe('the body is not JSON');
    expect(deliveryProblem({ ...ok, body: '{"action":7}' })).toBe('action must be a string');
    for (const id of ['"abc"', '-1', '0', '1.5', '1e300', '{}']) {
      expect(deliveryProblem({ ...ok, body: `{"action":"created","installation":{"id":${id}}}` })).toBe(
        'installation.id must be a positive integer',
      );
    }
    expect(deliveryProblem({ ...ok, body: '{"repository":"acme/docs"}' })).toBe('repository must be an object');
    expect(deliveryProblem({ ...ok, event: '', body: '{}' })).toMatch(/^X-GitHub-Event/);
    expect(deliveryProblem({ ...ok, event: '__proto__', body: '{}' })).toMatch(/^X-GitHub-Event/);
    expect(deliveryProblem({ ...ok, id: 'x'.repeat(300), body: '{}' })).toMatch(/^X-GitHub-Delivery/);
  });
});

describe.each(PROVIDERS)('signed webhook requests that are not events on %s', (provider) => {
  let e2e: GitHubE2E;
  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('answers 400 with a JSON error for null, a string, a bad installation id or a body that does not decompress, and records nothing', async () => {
    const badInstallation = examplePayload('installation', 'created');
    badInstallation.installation.id = 'abc';
    const cases: { event: string; raw: string; error: RegExp; headers?: Record<string, string> }[] = [
      { event: 'installation', raw: 'null', error: /the payload must be a JSON object/ },
      { event: 'issue_comment', raw: '"x"', error: /the payload must be a JSON object/ },
      {
        event: 'installation',
        raw: JSON.stringify(badInstallation),
        error: /installation\.id must be a positive integer/,
      },
      { event: 'ping', raw: '{"zen":', error: /the body is not JSON/ },
    ];
    for (const c of cases) {
      const res = await e2e.deliver(c.event, undefined, { raw: c.raw });
      expect({ raw: c.raw.slice(0, 20), status: res.status }).toEqual({ raw: c.raw.slice(0, 20), status: 400 });
      expect(JSON.parse(res.body).error).toMatch(c.error);
      expect(await findDelivery(e2e.database.db, res.id)).toBeNull();
    }
    const gzipped = await fetch(`${e2e.scribe.url}/api/github/webhooks`, {
      method: 'POST',
      body: 'xx',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-github-event': 'ping',
        'x-github-delivery': 'd-gzip',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
    });
    expect(gzipped.status).toBe(400);
    expect(((await gzipped.json()) as { error: string }).error).toBe(
      'Request body does not match its Content-Encoding',
    );
  });

  it('answers a delivery declared over GitHub’s 25 MB cap with 413 before a byte of it arrives, and records nothing', async () => {
    const before = await e2e.database.db.webhookDelivery.count();
    const connection = await connect(e2e.scribe.url);
    connection.send(
      'POST /api/github/webhooks HTTP/1.1\r\nHost: scribe\r\nContent-Type: application/json\r\n' +
        `X-GitHub-Event: push\r\nX-GitHub-Delivery: big-1\r\nContent-Length: ${26 * 1024 * 1024}\r\n\r\n`,
    );
    const answer = await connection.closed(10_000);
    connection.destroy();
    expect(answer).not.toBeNull();
    expect(parseAnswer(answer!)).toMatchObject({
      status: 413,
      body: { error: `Request body is too large (limit ${25 * 1024 * 1024} bytes)` },
    });
    expect(await e2e.database.db.webhookDelivery.count()).toBe(before);
  });

  it('still answers a bad signature with 400, and a well-formed event named like an Object member is ignored, not a crash', async () => {
    const bad = await e2e.deliver('installation', null, { raw: 'null', signature: `sha256=${'ab'.repeat(32)}` });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/signature/i);
    for (const event of ['constructor', 'tostring', 'hasownproperty']) {
      const res = await e2e.deliver(event, { zen: 'x' });
      expect(res.status).toBe(200);
      expect(await e2e.settled(res.id)).toMatchObject({ status: 'ignored', outcome: `${event} is not handled` });
    }
  });
});
