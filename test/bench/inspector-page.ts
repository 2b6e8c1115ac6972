/**
 * Issue 30: the inspector loads in under a second with 10,000 journal entries and 1,000 runs. One
 * account holds 1,000 runs (half on the clock, half seeded in a fixed state) and made 10,000 calls
 * (the whole journal, `--journal-size` 10,000). Debian's headless chromium (this process's core)
 * then opens each view, from navigation until it shows its data (the journal's first page, the
 * runs' first page, the matrix...), 5 times each (the median is the row); and, with the requests
 * view live, how long a call takes to show in it.
 */
import autocannon, { type Result } from 'autocannon';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium.js';
import {
  type BenchContext,
  control,
  median,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const PAGE_TARGET_MS = 1000;
const RUNS = 1000;
const CALLS = 10_000;
const LOADS = 5;

/** Each view, and what shows once it has loaded its data. */
const VIEWS: [view: string, ready: string][] = [
  ['requests', 'table.requests tbody tr:nth-child(50)'],
  ['accounts', '[data-action="next-transition"]'],
  ['runs', 'table.runs tbody tr:nth-child(50)'],
  ['faults', 'form.fault-form'],
  ['webhooks', 'text=No deliveries.'],
  ['coverage', 'table.matrix tbody tr'],
];
const rowName = (view: string) =>
  `inspector: ${view} view loads (10,000 calls journaled, 1,000 runs)`;
const LIVE = 'inspector: a call shows in the live view';

async function world(server: ServerProcess) {
  const { account, key } = await control<{ account: { id: string }; key: { secret: string } }>(
    server,
    'POST',
    '/accounts',
    { name: 'bench' },
  );
  const spec = { path: 'specs/pick.yaml', name: 'pick' };
  for (let i = 0; i < RUNS; i++)
    await control(server, 'POST', `/accounts/${account.id}/runs`, {
      kind: 'evaluation',
      spec,
      ...(i % 2 ? { status: 'succeeded' } : {}),
    });
  const result = await new Promise<Result>((resolve, reject) =>
    autocannon(
      {
        url: `${server.url}/v1/keys/me`,
        connections: 10,
        amount: CALLS,
        headers: { authorization: `Bearer ${key.secret}` },
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    ),
  );

  return { account: account.id, secret: key.secret, failed: result.non2xx + result.errors };
}

/** Wall ms from navigation to the view showing its data. */
async function load(page: Page, url: string, ready: string): Promise<number> {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto(url);
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  return performance.now() - started;
}

async function liveDelay(page: Page, server: ServerProcess, base: string, secret: string) {
  await page.goto(`${base}#view=requests`);
  await page.locator('#live.live').waitFor();
  await page.locator('table.requests tbody tr:nth-child(50)').waitFor();
  const sent = performance.now();
  const res = await fetch(`${server.url}/v1/keys/me`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  await page.locator(`tr[data-id="${res.headers.get('x-request-id')}"]`).waitFor();
  return performance.now() - sent;
}

async function measure(ctx: BenchContext): Promise<ScenarioResult[]> {
  const server = await startEmulator(ctx.pinning, ctx.main);
  let browser: Browser | undefined;
  try {
    const { account, secret, failed } = await world(server);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1360, height: 760 } });
    const base = `${server.url}/_control/ui`;
    const rows: ScenarioResult[] = [];
    for (const [view, ready] of VIEWS) {
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++)
        times.push(await load(page, `${base}#view=${view}&account=${account}`, ready));
      const each = times.map((t) => Math.round(t)).join(' / ');
      rows.push({
        name: rowName(view),
        ms: median(times),
        non2xx: failed,
        errors: 0,
        notes: `median of ${LOADS}: ${each} ms`,
      });
    }
    const delays: number[] = [];
    for (let i = 0; i < LOADS; i++) delays.push(await liveDelay(page, server, base, secret));
    rows.push({
      name: LIVE,
      ms: median(delays),
      non2xx: 0,
      errors: 0,
      notes: `median of ${LOADS}: ${delays.map((d) => Math.round(d)).join(' / ')} ms`,
    });
    return rows;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export function inspectorPage(): Scenario {
  return {
    name: 'inspector: page loads with 10,000 journal entries and 1,000 runs',
    run: measure,
    targets: (rows) =>
      VIEWS.map(([view]) => {
        const ms = rows.get(rowName(view))?.ms;
        return ms === undefined
          ? `${rowName(view)}: not measured`
          : `${rowName(view)}: ${Math.round(ms)} ms (target < ${PAGE_TARGET_MS} ms: ${verdict(ms < PAGE_TARGET_MS)})`;
      }),
  };
}
