/**
 * An emulator built with some of the registered kinds (`createEmulator({ kinds })`, as every
 * kind's tests build theirs): the shipped scenarios, whose keys list every kind's scopes, load
 * with the scopes of the kinds not served dropped; a scope no registered kind has is still refused.
 */
import { expect, test } from 'vitest';
import { evaluations } from '../../src/kinds/evaluations/index.js';
import { twins } from '../../src/kinds/twins/index.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';

const AREAS = ['scenarios:write', 'webhooks:write', 'usage:read', 'requests:read'];

test("one kind: the default scenario's key holds that kind's scopes and the areas', and a reset keeps it so", async () => {
  const emu = testEmulator({ kinds: [evaluations] });
  const me = async () => (await emu.api('GET', '/v1/keys/me')).json.scopes as string[];
  expect((await me()).sort()).toEqual(['evaluations:write', ...AREAS].sort());
  await emu.control('POST', '/reset');
  expect((await me()).sort()).toEqual(['evaluations:write', ...AREAS].sort());
  // The other kinds are not served, and their scopes are not a key's to hold.
  expect((await emu.api('GET', '/v1/twins')).status).toBe(404);
  const res = await emu.app.request(`/_control/accounts/${DEFAULT_ACCOUNT}/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'k', scopes: ['twins:read'] }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: unknown }).error).toMatchObject({
    code: 'parameter_invalid',
    param: 'scopes.0',
  });
});

test('an inline scenario naming a kind not served loads without its scope; an unknown scope is refused', async () => {
  const emu = testEmulator({ kinds: [twins] });
  const load = (scopes: string[]) =>
    emu.app.request('/_control/scenarios/load', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scenario: {
          name: 'mine',
          accounts: [
            {
              name: 'A',
              features: ['twins'],
              keys: [{ name: 'k', secret: 'svc_mine_secret_1', scopes }],
            },
          ],
        },
      }),
    });
  expect((await load(['twins:read', 'evaluations:write'])).status).toBe(200);
  const me = await emu.api('GET', '/v1/keys/me', { secret: 'svc_mine_secret_1' });
  expect(me.json.scopes).toEqual(['twins:read']);

  const refused = await load(['twins:read', 'widgets:write']);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: unknown }).error).toMatchObject({
    code: 'parameter_invalid',
    param: 'scenario.accounts.0.keys.0.scopes.1',
  });
});
