import { type Browser, type BrowserServer, chromium } from 'playwright-core';

/** Debian's chromium, headless, as every browser test starts it. */
const LAUNCH = {
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
};

/**
 * Debian's chromium (`/usr/bin/chromium`, installed by .ci/run), headless, through playwright-core:
 * the browser tests' one way to start it. Each start is a process: those tests are in the SLOW list.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/**
 * The same chromium as a server that several test files connect to (`connectChromium`): the
 * inspector's tests start it once, in their project's global setup, instead of once per file.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH);
}

/** A connection to the chromium `launchChromiumServer` started; closing it leaves that running. */
export function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}
