import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { systemClock } from '../clock.js';
import { openDatabase, type Database } from '../db/client.js';
import { migrateDatabase } from '../db/migrate.js';
import { DomainError } from '../errors.js';
import { UsageError, type CliIo, type Command } from './command.js';
import { projectCommands } from './project-commands.js';
import { keyCommands } from './key-commands.js';
import { JobCommandFailed, jobCommands } from './job-commands.js';
import { logsCommands } from './logs-import.js';
import { analyticsCommands } from './analytics-rebuild.js';
import { rangesCommands } from './ranges-import.js';
import { docsAccessCommands } from './docs-access.js';
import { robotsCommands } from './robots-import.js';
import { analyticsCopyCommands } from './analytics-copy.js';
import { automationCommands } from './automation-commands.js';
import { webhookCommands } from './webhook-commands.js';

/** Every operator command, by "group name". Add a module's commands here. */
export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    summary: 'Applies pending migrations, under a lock (the server also applies them at start-up).',
    async run({ config, io }) {
      const applied = await migrateDatabase(config.database);
      io.out(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
    },
  },
  ...projectCommands,
  ...keyCommands,
  ...jobCommands,
  ...automationCommands,
  ...webhookCommands,
  ...logsCommands,
  ...analyticsCommands,
  ...rangesCommands,
  ...docsAccessCommands,
  ...robotsCommands,
  ...analyticsCopyCommands,
};

/** The usage of every command, or of those whose name starts with `group` (`scribe project --help`). */
export function usageText(group?: string): string {
  const listed = Object.entries(commands).filter(([name]) => !group || name.split(' ')[0] === group);
  return [
    'usage: scribe <command>',
    ...listed.map(([, c]) => `  scribe ${c.usage}`),
    '',
    'scribe <command> --help prints what a command does.',
  ].join('\n');
}

/** One command's usage line and summary: what `scribe <command> --help` prints. */
export function commandHelp(name: string): string {
  const command = commands[name];
  return `usage: scribe ${command.usage}\n\n${command.summary}`;
}

/** The command `argv` names, by its first two words or its first. */
function commandName(argv: readonly string[]): string | undefined {
  return [argv.slice(0, 2).join(' '), argv[0]].find((n) => n !== undefined && commands[n]);
}

/** `project` for `project add`: the first word several commands share. */
const isGroup = (word: string | undefined) => Object.keys(commands).some((n) => n.split(' ')[0] === word);

/**
 * The help asked for by `--help`/`-h` anywhere before a `--`, or by `help [command]`; undefined when none was.
 * Answered before the configuration is read, so help works in any environment.
 */
function helpFor(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  const words =
    argv[0] === 'help' ? argv.slice(1) : flags.includes('--help') || flags.includes('-h') ? argv : undefined;
  if (!words) return undefined;
  const name = commandName(words);
  if (name) return commandHelp(name);
  return usageText(isGroup(words[0]) ? words[0] : undefined);
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const help = helpFor(argv);
  if (help !== undefined) {
    io.out(help);
    return 0;
  }
  const name = commandName(argv);
  if (!name) {
    io.err(usageText());
    return 2;
  }
  const command = commands[name];
  let database: Database | undefined;
  try {
    const config: Config = loadConfig(env);
    const parsed = parseArgs({
      args: argv.slice(name.split(' ').length),
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
    await command.run({
      config,
      clock: systemClock,
      io,
      positionals: parsed.positionals,
      values: parsed.values as Record<string, string | boolean | string[] | undefined>,
      db: async () => {
        if (!database) {
          await migrateDatabase(config.database);
          database = openDatabase(config.database);
        }
        return database.db;
      },
    });
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`scribe: ${(err as Error).message}\n  usage: scribe ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(`scribe: invalid configuration: ${err.message}`);
      return 2;
    }
    if (err instanceof JobCommandFailed) {
      io.err(`scribe: ${err.message}`);
      return 1;
    }
    if (err instanceof DomainError) {
      io.err(`scribe: ${err.message}${err.details?.length ? `: ${err.details.map((d) => d.message).join('; ')}` : ''}`);
      return 1;
    }
    throw err;
  } finally {
    await database?.close();
  }
}
