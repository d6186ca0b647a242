import { commandHelp, commands, runCli, usageText } from '../../../src/cli/run-cli.js';
import type { CliIo } from '../../../src/cli/command.js';

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
  const code = await runCli(argv, io, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('scribe --help', () => {
  it('lists every command with its usage, on stdout, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const { code, out, err } = await run(argv);
      expect(code).toBe(0);
      expect(err).toBe('');
      expect(out).toBe(usageText());
      for (const command of Object.values(commands)) expect(out).toContain(`  scribe ${command.usage}\n`);
    }
  });

  it("prints one command's usage and summary for `<command> --help`, wherever the flag stands", async () => {
    const expected = commandHelp('project add');
    expect(expected).toMatch(/^usage: scribe project add --repo <owner\/name> --ref <branch>.*\n\nCreates a project/);
    for (const argv of [
      ['project', 'add', '--help'],
      ['project', 'add', '--repo', 'acme/docs', '-h'],
      ['help', 'project', 'add'],
    ]) {
      const result = await run(argv);
      expect(result).toEqual({ code: 0, out: expected, err: '' });
    }
    expect((await run(['migrate', '--help'])).out).toBe(commandHelp('migrate'));
  });

  it("lists a group's commands for `<group> --help`", async () => {
    const { code, out } = await run(['key', '--help']);
    expect(code).toBe(0);
    expect(out).toBe(usageText('key'));
    expect(out.split('\n').filter((l) => l.startsWith('  scribe '))).toEqual([
      `  scribe ${commands['key create'].usage}`,
      `  scribe ${commands['key list'].usage}`,
      `  scribe ${commands['key revoke'].usage}`,
    ]);
  });

  it('answers help before reading the configuration, so a broken environment still gets it', async () => {
    const { code, out } = await run(['job', 'create', '--help'], { PORT: 'not-a-port' });
    expect(code).toBe(0);
    expect(out).toBe(commandHelp('job create'));
  });

  it('treats --help after `--` as an argument, not a request for help', async () => {
    // an invalid PORT shows the command went past help to reading the configuration
    const { code, out, err } = await run(['project', 'remove', '--', '--help'], { PORT: 'not-a-port' });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^scribe: invalid configuration: PORT/);
  });

  it('gives every command a summary of its own', () => {
    const summaries = Object.values(commands).map((c) => c.summary);
    for (const summary of summaries) expect(summary).toMatch(/^[A-Z].{10,}\.$/s);
    expect(new Set(summaries).size).toBe(summaries.length);
  });

  it('still refuses an unknown command with the usage on stderr, exit 2', async () => {
    const { code, out, err } = await run(['frobnicate']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(usageText());
  });
});
