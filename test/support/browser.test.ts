import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath, launchBrowser } from './browser.js';

// A stand-in for Chromium that dies with SIGSEGV on its first `crashes` starts and is the real browser after that,
// counting its starts in a file.
function crashingChromium(
  dir: string,
  realChromium: string,
  crashes: number,
): { executable: string; starts: () => number } {
  const counter = path.join(dir, 'starts');
  const executable = path.join(dir, 'chromium');
  fs.writeFileSync(
    executable,
    `#!/bin/sh
n=$(cat '${counter}' 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > '${counter}'
if [ "$n" -le ${crashes} ]; then kill -SEGV $$; fi
exec '${realChromium}' "$@"
`,
    { mode: 0o755 },
  );
  return { executable, starts: () => Number(fs.readFileSync(counter, 'utf8')) };
}

describe('launchBrowser', () => {
  let dir: string;
  let realChromium: string;
  const configured = process.env.SCRIBE_CHROMIUM;
  beforeAll(async () => {
    realChromium = await chromiumPath();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-browser-'));
  });
  afterEach(() => {
    if (configured === undefined) delete process.env.SCRIBE_CHROMIUM;
    else process.env.SCRIBE_CHROMIUM = configured;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('launches again when Chromium dies while starting, and the browser it returns renders pages', async () => {
    const stand = crashingChromium(dir, realChromium, 2);
    process.env.SCRIBE_CHROMIUM = stand.executable;
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent('<p id="p">rendered</p>');
      expect(await page.textContent('#p')).toBe('rendered');
    } finally {
      await browser.close();
    }
    expect(stand.starts()).toBe(3);
  });

  it('gives up after three starts that all die, with the launch error', async () => {
    const stand = crashingChromium(dir, realChromium, 100);
    process.env.SCRIBE_CHROMIUM = stand.executable;
    await expect(launchBrowser()).rejects.toThrow(/SIGSEGV/);
    expect(stand.starts()).toBe(3);
  });

  it('does not retry a launch that fails for another reason', async () => {
    const notExecutable = path.join(dir, 'not-executable');
    fs.writeFileSync(notExecutable, 'not a program', { mode: 0o644 });
    process.env.SCRIBE_CHROMIUM = notExecutable;
    const stderr = jest.spyOn(process.stderr, 'write');
    try {
      await expect(launchBrowser()).rejects.toThrow(/EACCES/);
      expect(stderr.mock.calls.some(([text]) => String(text).includes('Chromium died while starting'))).toBe(false);
    } finally {
      stderr.mockRestore();
    }
  });
});
