import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { connectChromium, openPage } from '../chromium.js';

/**
 * `--cors` as a browser-based SDK test meets it: a page served from one origin (a plain HTTP
 * server on its own port) calls the emulator on another with `fetch` and an `Authorization`
 * header, which makes Chromium send a preflight first. Debian's chromium, headless.
 */
const PAGE_HTML = '<!doctype html><title>sdk test page</title><p>sdk test page</p>';

let page: Server;
let pageOrigin: string;
let browser: Browser;
const emulators: RunningEmulator[] = [];

beforeAll(async () => {
  page = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await connectChromium(inject('chromiumWsEndpoint'));
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(emulators.map((e) => e.stop()));
  await new Promise((resolve) => page?.close(resolve));
});

/** What the page's script sees of `fetch(url)` with the default key: the answer, or the failure. */
async function fetchFromPage(url: string) {
  const tab = await openPage(browser);
  try {
    await tab.goto(pageOrigin);
    return await tab.evaluate(async (target) => {
      try {
        const res = await fetch(target, {
          method: 'POST',
          headers: {
            Authorization: 'Bearer svc_test_emulator_default',
            'Content-Type': 'application/json',
            'Idempotency-Key': 'browser-1',
          },
          body: JSON.stringify({ robot: 'so100', task: 'pick_place' }),
        });
        return {
          status: res.status,
          body: await res.json(),
          requestId: res.headers.get('X-Request-Id'),
          version: res.headers.get('Service-Version'),
        };
      } catch (err) {
        return { failed: String(err) };
      }
    }, url);
  } finally {
    await tab.close();
  }
}

test('with --cors a page on another origin calls /v1 and reads the body and X-Request-Id', async () => {
  const emulator = await startEmulator({ cors: [pageOrigin] });
  emulators.push(emulator);
  expect(new URL(emulator.baseUrl).origin).not.toBe(pageOrigin);
  const seen = await fetchFromPage(`${emulator.baseUrl}/v1/scenarios`);
  expect(seen).toMatchObject({ status: 201, body: { object: 'scenario', robot: 'so100' } });
  expect(seen.requestId).toMatch(/^req_/);
  expect(seen.version).toBe('2026-09-27');
  // The preflight was answered before authentication; the POST itself was journaled once.
  const journal = await emulator.control.listRequests();
  expect(journal.data.map((r) => [r.method, r.status])).toEqual([['POST', 201]]);
});

test('without --cors the same fetch fails in the browser', async () => {
  const emulator = await startEmulator();
  emulators.push(emulator);
  const seen = await fetchFromPage(`${emulator.baseUrl}/v1/scenarios`);
  expect(seen).toEqual({ failed: 'TypeError: Failed to fetch' });
});
