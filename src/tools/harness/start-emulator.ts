import type { AddressInfo } from 'node:net';
import type { EmulatorOptions } from '../../emulator.js';
import { createNodeServer } from '../../http/node-server.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { type ControlClient, createControlClient } from './control-client.js';

export interface StartOptions extends EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}

export interface RunningEmulator {
  /** e.g. `http://127.0.0.1:41234`; the product API is under `/v1`. */
  baseUrl: string;
  control: ControlClient;
  /** The in-process emulator (its app, store and clocks), for what the HTTP API does not offer. */
  emulator: Emulator;
  /** Stops listening, drops open connections and closes the database; a second call does nothing more. */
  stop(): Promise<void>;
}

/**
 * Starts an emulator in this process on a free port (in memory, the `default` scenario, seed `0`,
 * manual clocks unless told otherwise): one per test file, `control.newAccount()` per test.
 * @example
 * const { baseUrl, control, stop } = await startEmulator();
 * const { headers, clock } = await control.newAccount();
 * await fetch(`${baseUrl}/v1/keys/me`, { headers });
 * await stop();
 */
export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...emulatorOptions } = options;
  const allowedHosts = [...(emulatorOptions.allowedHosts ?? []), host];
  // The seed defaults to '0' in createEmulator, or is a snapshot file's own.
  const emulator = createEmulator({ clock: 'manual', ...emulatorOptions, allowedHosts });
  const server = createNodeServer(emulator.app, emulator.deps);
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  }).catch((err: unknown) => {
    emulator.close();
    throw err;
  });
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const baseUrl = `http://${hostPart}:${address.port}`;
  emulator.deps.webhooks.origin = baseUrl;
  let stopped: Promise<void> | undefined;
  return {
    baseUrl,
    control: createControlClient(baseUrl, { token: options.controlToken ?? undefined }),
    emulator,
    stop: () => {
      stopped ??= new Promise<void>((resolve, reject) => {
        emulator.deps.journal.endSubscriptions();
        server.close((err) => {
          emulator.close();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
