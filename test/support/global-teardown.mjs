// Drops the run's template databases in a child process, as test/support/global-setup.mjs made them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function globalTeardown() {
  const script = fileURLToPath(new URL('./test-templates.ts', import.meta.url));
  execFileSync(process.execPath, ['--import', 'tsx', script, 'drop'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'inherit',
  });
}
