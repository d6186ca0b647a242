import fs from 'node:fs';
import path from 'node:path';
import sparticuzChromium from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/**
 * The browser the tests drive: `SCRIBE_CHROMIUM` when set (a system Chromium, e.g. /usr/bin/chromium), otherwise
 * the headless Chromium that the @sparticuz/chromium dev dependency ships inside its npm package, so `npm ci` alone
 * brings a browser. Its first use unpacks it to the system temp folder; scripts/test.sh does that once before jest
 * starts, so parallel workers never unpack it at the same time.
 */
export async function chromiumPath(): Promise<string> {
  const configured = process.env.SCRIBE_CHROMIUM;
  if (configured) {
    if (!fs.existsSync(configured))
      throw new Error(
        `SCRIBE_CHROMIUM=${configured} does not exist; unset it to use the Chromium of @sparticuz/chromium`,
      );
    return configured;
  }
  return sparticuzChromium.executablePath();
}

/** How many times a launch is tried when Chromium dies while starting. */
const LAUNCH_ATTEMPTS = 3;

/**
 * Chromium, headless, with the flags that keep it off the network (this machine has none).
 *
 * Chromium now and then dies while it starts (a SIGSEGV before it answers on its pipe, seen once in a full run of
 * the suite). That says nothing about the page under test, so a launch whose browser process exits before it is up
 * is tried again, up to LAUNCH_ATTEMPTS times; any other launch error is thrown at once.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromiumPath();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      });
    } catch (error) {
      if (attempt >= LAUNCH_ATTEMPTS || !diedWhileStarting(error)) throw error;
      process.stderr.write(
        `Chromium died while starting (attempt ${attempt} of ${LAUNCH_ATTEMPTS}); launching again\n`,
      );
    }
  }
}

function diedWhileStarting(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes('process did exit') || message.includes('browser has been closed');
}
