import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
// what a fresh clone has that the build and the service read (node_modules is linked, as `npm ci` would have made it)
const CLONED = [
  'src',
  'prisma',
  'scripts/build.js',
  'scripts/build-dashboard.js',
  'bin',
  'package.json',
  'app.yml',
  'tsconfig.json',
];

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

/** Spawns `command` in `cwd` (its own process group, so npm and the node it starts stop together) until it listens. */
async function startService(cwd: string, command: string[]): Promise<Running> {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    detached: true,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      DATABASE_URL: `file:${path.join(cwd, 'data/scribe.db')}`,
      SCRIBE_AI_RANGES_REFRESH: 'off',
      SCRIBE_AI_REVERSE_DNS: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "scribe listening" line; output:\n${output}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening; output:\n${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /"port":(\d+)[^\n]*"msg":"scribe listening"/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
  });
  return { child, url, exited };
}

async function stop(running: Running): Promise<void> {
  process.kill(-running.child.pid!, 'SIGTERM');
  await running.exited;
}

describe('npm start on a fresh clone', () => {
  let clone: string;
  beforeAll(() => {
    clone = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-start-'));
    for (const item of CLONED) fs.cpSync(path.join(root, item), path.join(clone, item), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
  });
  afterAll(() => {
    fs.rmSync(clone, { recursive: true, force: true });
  });

  it('builds dist/ and serves from it, and builds again only when a source is newer', async () => {
    const viaNpm = await startService(clone, ['npm', 'start', '--silent']);
    try {
      expect((await fetch(`${viaNpm.url}/readyz`)).status).toBe(200);
    } finally {
      await stop(viaNpm);
    }
    expect(fs.existsSync(path.join(clone, 'dist/src/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(clone, 'dist/src/main.ts'))).toBe(false);

    const stamp = path.join(clone, 'dist/.built');
    const built = fs.statSync(stamp).mtimeMs;
    const buildIfStale = () =>
      spawnSync(process.execPath, ['scripts/build.js', '--if-stale'], { cwd: clone, encoding: 'utf8' }).stderr;
    expect(buildIfStale()).toBe('');
    expect(fs.statSync(stamp).mtimeMs).toBe(built);
    const later = new Date(Date.now() + 1000);
    fs.utimesSync(path.join(clone, 'src/config.ts'), later, later);
    expect(buildIfStale()).toMatch(/built dist/);
  });

  it('runs the compiled service with nothing from src/ beside it, as the image does', async () => {
    fs.rmSync(path.join(clone, 'src'), { recursive: true });
    fs.rmSync(path.join(clone, 'prisma'), { recursive: true });
    fs.rmSync(path.join(clone, 'data'), { recursive: true, force: true });
    const compiled = await startService(clone, [process.execPath, 'dist/src/main.js']);
    try {
      // a fresh database: the migrations were found in dist/ and applied
      expect((await fetch(`${compiled.url}/readyz`)).status).toBe(200);
      // files read at run time: the dashboard page, its stylesheet and its script (bundled into dist/ by the build)
      const page = await fetch(`${compiled.url}/dashboard`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      expect((await fetch(`${compiled.url}/dashboard/dashboard.css`)).status).toBe(200);
      const script = await fetch(`${compiled.url}/dashboard/dashboard.js`);
      expect(script.status).toBe(200);
      expect((await script.text()).length).toBeGreaterThan(10_000);
    } finally {
      await stop(compiled);
    }
  });
});
