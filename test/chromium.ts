import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's chromium (`/usr/bin/chromium`, installed by .ci/run), headless, through playwright-core:
 * the browser tests' one way to start it. Each start is a process: those tests are in the SLOW list.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
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
