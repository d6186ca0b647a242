import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin: NodeJS.ReadableStream;
  /** true when stderr is a terminal (progress bars) */
  interactive: boolean;
}

export interface CommandContext {
  config: Config;
  /** opens (and migrates) the configured database on first use */
  db(): Promise<Db>;
  clock: Clock;
  io: CliIo;
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
}

/** One `scribe <group> <name>` command: its flags (node:util parseArgs form), usage line, summary and handler. */
export interface Command {
  usage: string;
  /** what the command does, in a sentence or two: `scribe <command> --help` prints it, docs/cli.md is built from it */
  summary: string;
  options?: ParseArgsConfig['options'];
  run(ctx: CommandContext): Promise<void>;
}

export class UsageError extends Error {}
