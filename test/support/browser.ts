// The browser of the browser tests: Debian's Chromium headless shell through playwright-core
// (DASHBOARD_TEST_CHROME overrides the binary).
import { chromium, type Browser } from 'playwright-core';

export function launchTestBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.DASHBOARD_TEST_CHROME ?? '/usr/lib/chromium/chromium-headless-shell',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
