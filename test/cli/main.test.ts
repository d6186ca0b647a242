import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { commandHelp, usageText } from '../../src/cli/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);

/** The command as an operator types it in the checkout: npm resolves `scribe` to this package's own bin. */
async function shell(command: string) {
  const { stdout, stderr } = await exec('bash', ['-c', command], { cwd: ROOT, env: process.env });
  return { stdout: stdout.trimEnd(), stderr };
}

// npx puts a `--` before the first word that is not one of its own flags, so `npx scribe --help` reaches Scribe;
// `npm exec scribe --help` and `npm run scribe --help` do not (npm reads every flag before a `--` as its own).
describe('the scribe bin through npm', () => {
  it("`npx scribe --help` prints Scribe's usage", async () => {
    expect((await shell('npx scribe --help')).stdout).toBe(usageText());
  });

  it("`npx scribe <command> --help` prints that command's usage and summary", async () => {
    expect((await shell('npx scribe key create --help')).stdout).toBe(commandHelp('key create'));
  });

  it('`npm run scribe -- --help` passes the flag on after the `--`', async () => {
    expect((await shell('npm run --silent scribe -- logs import --help')).stdout).toBe(commandHelp('logs import'));
  });
});
