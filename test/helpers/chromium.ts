import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium; playwright-core never downloads a browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless chromium as root on a machine with no internet: without the background-networking
 * flags it keeps trying to reach Google's hosts. No jest here: the bench launches it too.
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
