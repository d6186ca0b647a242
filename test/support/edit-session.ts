import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkEdits } from '../../src/agent/check-edits.js';

/**
 * A copy of a fixture site and the edits made to it, recorded the way the agent's file tools record
 * them (each changed path with its content before the first change), so checkEdits sees what it sees
 * after a real run.
 */
export interface EditSession {
  dir: string;
  originals: Map<string, string | null>;
  write(file: string, text: string): Promise<void>;
  /** Replace text that must be there (a typo in a test must not pass silently). */
  replace(file: string, from: string, to: string): Promise<void>;
  remove(file: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  check(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export async function editSession(fixture: string): Promise<EditSession> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'scribe-checks-'));
  const dir = path.join(parent, 'repo');
  await fs.cp(fixture, dir, { recursive: true });
  const originals = new Map<string, string | null>();
  const abs = (file: string) => path.join(dir, file);
  const remember = async (file: string) => {
    if (!originals.has(file)) originals.set(file, await fs.readFile(abs(file), 'utf8').catch(() => null));
  };
  const session: EditSession = {
    dir,
    originals,
    write: async (file, text) => {
      await remember(file);
      await fs.mkdir(path.dirname(abs(file)), { recursive: true });
      await fs.writeFile(abs(file), text);
    },
    replace: async (file, from, to) => {
      const text = await fs.readFile(abs(file), 'utf8');
      if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
      await session.write(file, text.replace(from, to));
    },
    remove: async (file) => {
      await remember(file);
      await fs.rm(abs(file));
    },
    move: async (from, to) => {
      await remember(from);
      await remember(to);
      await fs.mkdir(path.dirname(abs(to)), { recursive: true });
      await fs.rename(abs(from), abs(to));
    },
    check: () => checkEdits({ workspaceDir: dir, originals }),
    cleanup: () => fs.rm(parent, { recursive: true, force: true }),
  };
  return session;
}

/** Every file of a fixture, as if the agent had created the whole site: everything in it gets checked. */
export async function allFilesNew(dir: string, relative = ''): Promise<Map<string, string | null>> {
  const files = new Map<string, string | null>();
  for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [file] of await allFilesNew(dir, child)) files.set(file, null);
    else files.set(child, null);
  }
  return files;
}
