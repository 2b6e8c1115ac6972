import { testEmulator } from './helpers.js';

/** A fresh emulator and a new account (control API) with the given account fields. */
export async function withAccount(fields: Record<string, unknown> = {}) {
  const emu = testEmulator();
  const created = await emu.control('POST', '/accounts', fields);
  const accountId: string = created.account.id;
  const secret: string = created.key.secret;
  return {
    ...emu,
    accountId,
    keyId: created.key.id as string,
    secret,
    call: (method: string, path: string, init: Parameters<typeof emu.api>[2] = {}) =>
      emu.api(method, path, { secret, ...init }),
    advance: (seconds: number) =>
      emu.control('POST', `/accounts/${accountId}/clock/advance`, { seconds }),
  };
}

export const SPEC = { spec: { path: 'sdk/spec.yaml', name: 'pick-place' } };
