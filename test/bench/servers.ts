import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Emulator } from '../../src/emulator.js';
import { createNodeServer } from '../../src/http/node-server.js';

type FetchHandler = Parameters<typeof serve>[0]['fetch'];

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Serves `fetch` with `@hono/node-server` on a free loopback port, as `src/main.ts` does. */
export function listen(fetch: FetchHandler): Promise<Listening> {
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined;
    server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      const s = server!;
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => closeServer(s) });
    });
    server.once('error', reject);
  });
}

/**
 * Serves the emulator on a free loopback port with the Node server `main.ts` and
 * `startEmulator` use (envelopes for parser errors, early answers kept safe for pooled clients).
 */
export function listenEmulator(emulator: Emulator): Promise<Listening> {
  const server: Server = createNodeServer(emulator.app, emulator.deps);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Keep-alive sockets left by the load generator would hold close() open.
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/** The floor: a bare Hono app answering one static JSON body of a chosen size. */
export function startFloor(body: object): Promise<Listening> {
  const app = new Hono();
  app.get('/floor', (c) => c.json(body));
  return listen(app.fetch);
}

/**
 * A static object copied from the `GET /v1/keys/me` body whose JSON is `targetLength` bytes long
 * (the name is padded if fields are ever added to the sample). Only the body is matched: the
 * emulator also sends `X-Request-Id` and `Service-Version` headers.
 */
export function sameSizeBody(sample: Record<string, unknown>, targetLength: number): object {
  const { id, object, name, scopes, created_at } = sample;
  const body = { id, object, name: String(name), scopes, created_at };
  const short = targetLength - Buffer.byteLength(JSON.stringify(body));
  if (short > 0) body.name += ' '.repeat(short);
  return body;
}
