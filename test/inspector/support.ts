/**
 * What the inspector's browser tests share (issue 30): the page opened in Debian's headless
 * chromium with every request that leaves the emulator refused (it must work offline), product
 * calls made as an SDK would make them, and the screenshots the manual shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { connectChromium } from '../chromium.js';

/** Where every run writes its screenshots, at each width: git-ignored, for looking at. */
export const SHOTS = new URL('./screenshots/', import.meta.url);
/** The manual's pictures, written only when asked for (`npm run screenshots`). */
const DOCS_IMAGES = new URL('../../docs/images/', import.meta.url);
const UPDATE_DOCS = process.env.UPDATE_DOCS_SCREENSHOTS === '1';

/** The widths every view is looked at: a narrow window, and a wide one (the manual's). */
export const NARROW = { width: 800, height: 1000 };
export const WIDE = { width: 1400, height: 800 };

/** The chromium of the browser project's global setup (test/browser-setup.ts), connected to. */
export function inspectorBrowser(): Promise<Browser> {
  return connectChromium(inject('chromiumWsEndpoint'));
}

/**
 * Every inspector test file's setup: an emulator started with `options` and a connection to the
 * global chromium before the file's tests, both closed after them. Read `ui.emulator` and
 * `ui.browser` inside the tests.
 * @example const ui = inspectorSetup(); ... openInspector(ui.browser, ui.emulator.baseUrl, 'runs')
 */
export function inspectorSetup(options: EmulatorOptions = {}) {
  const ui = {} as { emulator: RunningEmulator; browser: Browser };
  beforeAll(async () => {
    ui.emulator = await startEmulator(options);
    ui.browser = await inspectorBrowser();
  });
  afterAll(async () => {
    await ui.browser?.close();
    await ui.emulator?.stop();
  });
  return ui;
}

/**
 * The inspector at `#<hash>` in a new page; `requests` are the paths it asked the emulator for,
 * in order, from the start.
 */
export async function openInspector(browser: Browser, baseUrl: string, hash: string) {
  const page = await browser.newPage({ viewport: WIDE });
  // No deadline of Playwright's own (30 s): the test's limit (test/wait.ts) catches a hang.
  page.setDefaultTimeout(0);
  const elsewhere: string[] = [];
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // A script or style the page's Content-Security-Policy refused shows here too (an error answer
  // a test provokes is logged as a failed resource: not a fault of the page).
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(m.text());
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseUrl)) {
      requests.push(new URL(url).pathname);
      return route.continue();
    }
    elsewhere.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${baseUrl}/_control/ui#${hash}`);
  return {
    page,
    requests,
    /** Nothing was fetched from another site and no script failed. */
    expectClean: () => expect({ elsewhere, errors }).toEqual({ elsewhere: [], errors: [] }),
  };
}

/**
 * Writes `test/inspector/screenshots/ui-<name>-<width>.png` at 800 and at 1400 px wide, and with
 * `UPDATE_DOCS_SCREENSHOTS=1` the 1400 px one as the manual's `docs/images/ui-<name>.png` (unless
 * `docs: false`); `replace` swaps texts that differ between runs (a receiver's port) for fixed
 * ones first. The page is left at the size it had.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { replace?: [from: string, to: string][]; docs?: boolean } = {},
): Promise<void> {
  const before = page.viewportSize() ?? WIDE;
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [NARROW, WIDE]) {
    await page.setViewportSize(size);
    await steady(page, options.replace ?? []);
    const png = await page.screenshot({ animations: 'disabled' });
    writeFileSync(new URL(`ui-${name}-${size.width}.png`, SHOTS), png);
    if (UPDATE_DOCS && size === WIDE && options.docs !== false)
      writeFileSync(new URL(`ui-${name}.png`, DOCS_IMAGES), png);
  }
  await page.setViewportSize(before);
}

/** The page as every run shows it: fixed texts for varying ones, nothing hovered or focused. */
async function steady(page: Page, replace: [string, string][]): Promise<void> {
  await page.evaluate(`(() => {
    const swaps = ${JSON.stringify(replace)};
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (const [from, to] of swaps) n.nodeValue = n.nodeValue.replaceAll(from, to);
  })()`);
  // Wall-clock figures (durations, wall times) vary from run to run, in value and in width: left
  // out (through the DOM, as the page's CSP refuses the style Playwright would inject).
  await page.evaluate("for (const el of document.querySelectorAll('.wall')) el.textContent = ''");
  // Nothing under the pointer nor focused, and painted since: a hover or focus style shown or not
  // would differ from run to run.
  await page.mouse.move(0, 0);
  await page.evaluate(
    'document.activeElement?.blur(); new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
  );
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/**
 * A product call as an SDK makes one, with a fixed `Host` (the manual's `localhost:8710`) and
 * user agent, so the request detail the screenshots show is the same on every run.
 */
export function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { secret?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    host: 'localhost:8710',
    'user-agent': 'robot-policy-sdk/1.4.0 (tests)',
    ...(options.secret ? { authorization: `Bearer ${options.secret}` } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          json: text ? JSON.parse(text) : null,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
