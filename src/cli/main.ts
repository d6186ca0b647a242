import type { CliIo } from './command.js';
import { runCli } from './run-cli.js';

const io: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
  interactive: Boolean(process.stderr.isTTY),
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`scribe: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  },
);
