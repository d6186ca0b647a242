// Makes the run's template databases (test/support/test-templates.ts) in a child process: better-sqlite3 is a native
// module, and once loaded here it would throw its errors from this realm into tests that jest runs in band
// (--maxWorkers=1), where `instanceof Error` then fails.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function globalSetup() {
  const script = fileURLToPath(new URL('./test-templates.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, 'create'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // the workers jest starts after this inherit the environment
  Object.assign(process.env, JSON.parse(out));
}
