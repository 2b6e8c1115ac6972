/**
 * The inspector's layout at 800 and 1400 px wide, in Debian's headless chromium (issue 35): no
 * view runs past its box (a table's column cut off, the account picker clipped, a long path
 * running off the detail's title), an outcome's code is never broken inside, and the coverage
 * legend's chips read as examples, not as counts.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { call, inspectorSetup, NARROW, openInspector, screenshot, WIDE } from './support.js';

const ui = inspectorSetup();

/**
 * What runs past its box in the page as shown: an element whose content is wider than it (cut
 * off, or scrolled sideways), a control past the window's right edge, or the account picker too
 * narrow for the account it shows.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = [];
    const name = (el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().replace(/\\s+/g, '.') : '');
    const boxes = document.querySelectorAll('html, header, main, section.view, .split > *, .scroll, .detail, form');
    for (const el of boxes)
      if (el.scrollWidth > el.clientWidth + 1) found.push(name(el) + ' is ' + (el.scrollWidth - el.clientWidth) + ' px too narrow');
    for (const el of document.querySelectorAll('header *, button, input, select'))
      if (el.getBoundingClientRect().right > innerWidth + 1) found.push(name(el) + ' runs past the window');
    const picker = document.getElementById('account');
    const measure = document.createElement('canvas').getContext('2d');
    measure.font = getComputedStyle(picker).font;
    const text = picker.selectedOptions[0]?.text ?? '';
    // Its text, its padding and the arrow (about 20 px).
    if (measure.measureText(text).width + 24 > picker.clientWidth) found.push('the picker cuts "' + text + '"');
    return found;
  })()`) as Promise<string[]>;
}

/** Every view at both widths: what runs past its box, by view and width. */
async function everyView(page: Page, views: [view: string, ready: () => Promise<unknown>][]) {
  const found: string[] = [];
  for (const [view, ready] of views) {
    await page.locator(`#nav a[data-view="${view}"]`).click();
    await ready();
    for (const size of [NARROW, WIDE]) {
      await page.setViewportSize(size);
      for (const problem of await overflowing(page))
        found.push(`${view} at ${size.width}: ${problem}`);
    }
  }
  return found;
}

test('no view runs past its box at 800 or 1400 px: columns, the picker, a long path', async () => {
  const { control } = ui.emulator;
  const base = ui.emulator.baseUrl;
  const { account, key } = await control.createAccount({ name: 'nightly-regression-suite' });
  const secret = key.secret!;
  await call(base, 'GET', '/v1/keys/me', { secret });
  const long = await call(base, 'GET', `/v1/evaluations/eval_${'0123456789'.repeat(30)}`, {
    secret,
  });
  const run = await control.seedRun(account.id, {
    kind: 'evaluation',
    spec: { path: 'specs/pick_place.yaml', name: 'pick_place' },
  });
  await control.advanceClock(account.id, { seconds: 2 });
  await control.createFault({
    match: { route: '/v1/evaluations/{run_id}/resume', account: account.id },
    respond: { status: 409, code: 'not_resumable' },
    times: 3,
    skip: 1,
    probability: 0.5,
  });
  await control.seedWebhookEndpoint(account.id, { url: 'http://127.0.0.1:2/nobody-listens' });
  await control.triggerEvent(account.id, {
    type: 'evaluation.succeeded',
    data: { object: { id: run.id, object: 'evaluation', status: 'succeeded' } },
  });
  const { page, expectClean } = await openInspector(
    ui.browser,
    base,
    `view=requests&account=${account.id}`,
  );
  const detail = page.locator('aside.detail');
  await page.locator(`tr[data-id="${long.headers['x-request-id']}"]`).click();
  await detail.locator('h2').waitFor();
  await screenshot(page, 'requests-long-path', { docs: false });

  const found = await everyView(page, [
    [
      'requests',
      async () => {
        await page.locator(`tr[data-id="${long.headers['x-request-id']}"]`).click();
        await detail.locator('.why').waitFor();
      },
    ],
    ['accounts', () => page.locator('[data-action="next-transition"]').waitFor()],
    [
      'runs',
      async () => {
        await page.locator(`tr[data-id="${run.id}"]`).click();
        await detail.locator('ol.timeline').waitFor();
      },
    ],
    ['faults', () => page.locator('table.faults tbody tr').first().waitFor()],
    [
      'webhooks',
      async () => {
        await page.locator('tr[data-delivery]', { hasText: 'ECONNREFUSED' }).click();
        await detail.locator('pre.payload').waitFor();
      },
    ],
    ['coverage', () => page.locator('table.matrix tbody tr').first().waitFor()],
    ['world', () => page.locator('table.scenarios tbody tr').first().waitFor()],
  ]);
  expect(found).toEqual([]);
  expectClean();
  await page.close();
});

test("coverage: an outcome's code is never broken inside, and the legend's chips are examples", async () => {
  const { page, expectClean } = await openInspector(
    ui.browser,
    ui.emulator.baseUrl,
    'view=coverage',
  );
  await page.locator('table.matrix tbody tr').first().waitFor();
  for (const size of [NARROW, WIDE]) {
    await page.setViewportSize(size);
    // Every chip is one line high: none wraps inside its code.
    const heights = await page
      .locator('table.matrix .chip')
      .evaluateAll((chips) => chips.map((c) => Math.round(c.getBoundingClientRect().height)));
    expect(heights.length).toBeGreaterThan(500);
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(1);
  }
  const legend = await page.locator('.legend .chip').allInnerTexts();
  const codes = await page.locator('table.matrix .chip').allInnerTexts();
  expect(legend.length).toBeGreaterThan(0);
  // A placeholder, never a real code with a figure that could be taken for this run's.
  for (const sample of legend) {
    expect(sample).toMatch(/^(status )?code ×[n0]$/);
    expect(codes).not.toContain(sample);
  }
  expectClean();
  await page.close();
});
