/**
 * What a delivery sent and what the receiver answered (issue 35): `GET
 * /_control/webhook_deliveries/{id}` shows the payload, byte for byte the body the receiver got,
 * and each attempt's answer body, cut as the journal cuts bodies.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, onTestFinished, test } from 'vitest';
import { eventually } from '../../../test/webhook-receiver.js';
import { startEmulator } from '../../tools/harness/index.js';

/** A receiver that refuses every delivery with `answer` as its body, and keeps what it got. */
async function refusingReceiver(answer: string) {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(422, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies };
}

const EVENT = {
  type: 'evaluation.succeeded',
  data: {
    object: { id: 'eval_01KDVDNA0000000000000000EX', object: 'evaluation', status: 'succeeded' },
  },
} as const;

test("a delivery shows the payload it sent and each attempt the receiver's answer", async () => {
  const emulator = await startEmulator({ webhookRetrySchedule: [0, 60_000] });
  onTestFinished(() => emulator.stop());
  const { control } = emulator;
  const refusing = await refusingReceiver('signature mismatch: check your secret');
  const long = await refusingReceiver('x'.repeat(5000));
  const { account } = await control.createAccount({ name: 'receivers' });
  await control.seedWebhookEndpoint(account.id, { url: refusing.url });
  await control.seedWebhookEndpoint(account.id, { url: long.url });
  await control.triggerEvent(account.id, EVENT);
  const answered = await eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.id });
    const done = data.filter((d) => d.attempts.some((a) => a.status_code !== null));
    return done.length === 2 ? data : undefined;
  }, 'both first attempts');
  const [first, second] = await Promise.all(answered.map((d) => control.getWebhookDelivery(d.id)));
  const byUrl = (url: string) => [first!, second!].find((d) => d.url === url)!;

  const refused = byUrl(refusing.url);
  expect(refused.payload).toBe(refusing.bodies[0]);
  expect(JSON.parse(refused.payload!)).toMatchObject({ type: 'evaluation.succeeded' });
  expect(refused.attempts[0]).toMatchObject({
    status_code: 422,
    response_body: 'signature mismatch: check your secret',
    error: null,
  });
  expect(answered.find((d) => d.url === refusing.url)!.attempts[0]!.response_body).toBe(
    'signature mismatch: check your secret',
  );
  // A long answer is cut after 2,048 characters, saying how much was left out.
  expect(byUrl(long.url).attempts[0]!.response_body).toBe(
    `${'x'.repeat(2048)}...[truncated 2952 chars]`,
  );
});
