import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { connectChromium, openPage } from '../chromium.js';

/**
 * `/docs` as a developer sees it: Debian's chromium, headless and offline (every request that
 * leaves the emulator is refused), opens `/`, follows its "API reference" link and lands on Swagger
 * UI listing the areas and their operations in the served document's reading order.
 */
let browser: Browser;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator();
  browser = await connectChromium(inject('chromiumWsEndpoint'));
});

afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
});

test('GET / links Swagger UI, which lists Evaluations first with create, list, get on top', async () => {
  const page = await openPage(browser);
  const elsewhere: string[] = [];
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(emulator.baseUrl)) return route.continue();
    elsewhere.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${emulator.baseUrl}/`);
  await page.getByRole('link', { name: 'API reference', exact: true }).click();
  await page.waitForURL('**/docs');
  await page.locator('.opblock-tag').first().waitFor();
  const tags = await page
    .locator('h3.opblock-tag')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
  expect(tags.slice(0, 5)).toEqual(['Evaluations', 'Scenarios', 'Twins', 'Webhooks', 'API keys']);
  const first = page.locator('.opblock-tag-section').first().locator('.opblock-summary');
  const summaries = await first.locator('.opblock-summary-description').allInnerTexts();
  expect(summaries.slice(0, 3)).toEqual([
    'Create an evaluation (inferred)',
    'List evaluations, newest first (inferred)',
    'Get an evaluation (inferred)',
  ]);
  expect(elsewhere).toEqual([]);
  await page.close();
});
