import { existsSync } from 'node:fs';
import { CHROMIUM } from './chromium';

export { launchChromium } from './chromium';

function browserAvailable(): boolean {
  const found = existsSync(CHROMIUM);
  if (!found && (process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1')) {
    throw new Error(`${CHROMIUM} is missing: install the Debian package chromium`);
  }
  return found;
}

/** `describe` where chromium is installed; skipped with the reason elsewhere, never in CI. */
export const describeBrowser = browserAvailable() ? describe : describe.skip;
