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
import { analyticsCopyCommands } from './analytics-copy.js';
import { automationCommands } from './automation-commands.js';
import { webhookCommands } from './webhook-commands.js';

/** Every operator command, by "group name". Add a module's commands here. */
export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
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
  ...analyticsCopyCommands,
};

function usage(): string {
  return ['usage: scribe <command>', ...Object.values(commands).map((c) => `  scribe ${c.usage}`)].join('\n');
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    io.out(usage());
    return 0;
  }
  const name = [argv.slice(0, 2).join(' '), argv[0]].find((n) => n !== undefined && commands[n]);
  if (!name) {
    io.err(usage());
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
