/**
 * DNS rebinding (issue 27 item 4): a page on a rebinding domain reaches the emulator with its own
 * name in `Host`. The control API and the docs page answer only the hosts the emulator was bound
 * to or told about (`--allowed-hosts`); the product API, which needs a key, answers any.
 */
import { afterEach, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/tools/harness/index.js';
import { DEFAULT_SECRET } from '../helpers.js';
import { rawRequest } from '../reliability/raw-http.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.stop();
  emu = undefined;
});

const portOf = (e: RunningEmulator) => Number(new URL(e.baseUrl).port);

/** A request with the given `Host`, on a fresh connection. */
const withHost = (e: RunningEmulator, method: string, path: string, host: string) =>
  rawRequest(
    portOf(e),
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );

test('a rebinding host is refused 403 host_not_allowed on /_control and /docs, and resets nothing', async () => {
  emu = await startEmulator();
  const { account } = await emu.control.newAccount();
  for (const [method, path] of [
    ['POST', '/_control/reset'],
    ['GET', '/_control/health'],
    ['GET', '/_control/docs'],
    ['GET', '/docs'],
  ]) {
    const res = await withHost(emu, method!, path!, 'evil.example:8710');
    expect(res.status, `${method} ${path}`).toBe(403);
    const { error } = JSON.parse(res.body);
    expect(error).toMatchObject({ type: 'permission_error', code: 'host_not_allowed' });
    expect(error.request_id).toBe(res.headers['x-request-id']);
  }
  // The account made before is still there: nothing was reset.
  expect((await emu.control.getAccount(account.id)).id).toBe(account.id);
});

test('loopback names and the bound address pass; the product API answers any host', async () => {
  emu = await startEmulator();
  const port = portOf(emu);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
    expect((await withHost(emu, 'GET', '/_control/health', host)).status, host).toBe(200);
  }
  const me = await rawRequest(
    port,
    `GET /v1/keys/me HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${DEFAULT_SECRET}\r\nConnection: close\r\n\r\n`,
  );
  expect(me.status).toBe(200);
});

test('--allowed-hosts adds names, a leading dot a domain and its subdomains, * any', async () => {
  emu = await startEmulator({ allowedHosts: ['emulator', '.ci.example'] });
  expect((await withHost(emu, 'GET', '/_control/health', 'emulator:8710')).status).toBe(200);
  expect((await withHost(emu, 'GET', '/_control/health', 'a.ci.example')).status).toBe(200);
  expect((await withHost(emu, 'GET', '/_control/health', 'ci.example')).status).toBe(200);
  expect((await withHost(emu, 'GET', '/_control/health', 'evil.example')).status).toBe(403);
  await emu.stop();
  emu = await startEmulator({ allowedHosts: ['*'] });
  expect((await withHost(emu, 'GET', '/_control/health', 'evil.example')).status).toBe(200);
});
