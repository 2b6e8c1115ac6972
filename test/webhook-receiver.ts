/**
 * A local webhook receiver as an SDK's tests write one: each request verified with the official
 * `standardwebhooks` library, answered with the status (or status and body) `answer(n, request)`
 * gives the n-th (0-based), or held unanswered while `hold` is set.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// Waiting for a delivery is waiting like any other (test/wait.ts); kept here for its importers.
export { eventually } from './wait.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The type of the event, if the body parsed. */
  type: string;
  /** Whether `standardwebhooks` verified it with the receiver's `secret`. */
  verified: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The endpoint's signing secret (`whsec_...`), set once the endpoint is created. */
  secret: string;
  /** While true, requests are read and never answered. */
  hold: boolean;
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (n: number, request: Received) => number | { status: number; body: string } = () => 204,
): Promise<Receiver> {
  const state = { secret: '', hold: false };
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      let type = '';
      try {
        type = JSON.parse(body).type;
      } catch {}
      const n = received.length;
      const request = { headers: req.headers, body, type, verified };
      received.push(request);
      if (state.hold) return;
      const given = answer(n, request);
      res.statusCode = typeof given === 'number' ? given : given.status;
      res.end(typeof given === 'number' ? undefined : given.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    get hold() {
      return state.hold;
    },
    set hold(value: boolean) {
      state.hold = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
