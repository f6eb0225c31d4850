import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium; playwright-core never downloads a browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

function browserAvailable(): boolean {
  const found = existsSync(CHROMIUM);
  if (!found && (process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1')) {
    throw new Error(`${CHROMIUM} is missing: install the Debian package chromium`);
  }
  return found;
}

/** `describe` where chromium is installed; skipped with the reason elsewhere, never in CI. */
export const describeBrowser = browserAvailable() ? describe : describe.skip;

/**
 * Headless chromium as root on a machine with no internet: without the background-networking
 * flags it keeps trying to reach Google's hosts.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
