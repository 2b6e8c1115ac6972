import {
  type Browser,
  type BrowserContextOptions,
  type BrowserServer,
  chromium,
  type Page,
} from 'playwright-core';

/** Debian's chromium, headless, as every browser test starts it. */
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  // No launch deadline of Playwright's own: the test's limit (test/wait.ts) catches a hang.
  timeout: 0,
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
 * the browser tests' one way to start it. Each start is a process: the browser tests connect to the
 * one their project's global setup starts (test/browser-setup.ts).
 * No launch deadline of Playwright's own (30 s by default, which a busy machine can miss): the
 * test's limit (test/wait.ts) catches a hang.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/**
 * The same chromium as a server that several test files connect to (`connectChromium`): the
 * browser project starts it once, in its global setup, instead of once per file.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH);
}

/** A connection to the chromium `launchChromiumServer` started; closing it leaves that running. */
export function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/**
 * A new page whose navigations, waits and actions have no deadline of Playwright's own (30 s by
 * default): they wait for what they wait for, and the test's limit catches a hang.
 * @example const page = await openPage(browser); await page.goto(url);
 */
export async function openPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(0);
  return page;
}
