/**
 * The bodies the proxy passes on, bounded both ways: a request over the product's own 1 MiB limit
 * is refused (413, as the emulator answers it) and never forwarded; an answer is streamed on to the
 * client as it comes, kept only while it is within the limit of body-tap.ts.
 */
import { MAX_BODY_BYTES } from '../../http/body-limit.js';
import { type BodyDigest, BodyTap } from './body-tap.js';

/**
 * The request's body as text, or null when it is over 1 MiB (its `Content-Length`, or as read).
 * A body over it is left unread, not cancelled: the 413 still goes out on its connection, which
 * the Node server then drains and closes (src/http/node-server.ts).
 */
export async function requestText(req: Request): Promise<string | null> {
  if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return null;
  const reader = req.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An answer's body, read up to the limit: whole, or its start and the rest still to come. */
export type TappedBody =
  | { whole: true; bytes: Buffer }
  | {
      whole: false;
      /** The whole body for the client: what was read, then the rest as it comes. */
      stream: ReadableStream<Uint8Array>;
      /** Its size and digest, once the client has read it all (or went away). */
      digest: Promise<BodyDigest>;
    };

/**
 * Reads `body` until it ends or goes over `limit`; over it, the client gets the body as a stream
 * (read only as fast as the client takes it) that counts and hashes the rest on its way.
 */
export async function tapBody(
  body: ReadableStream<Uint8Array> | null,
  limit?: number,
): Promise<TappedBody> {
  const tap = new BodyTap(limit);
  const reader = body?.getReader();
  const start: Uint8Array[] = [];
  while (reader && !tap.over) {
    const { done, value } = await reader.read();
    if (done) break;
    tap.add(value);
    start.push(value);
  }
  if (!reader || !tap.over) return { whole: true, bytes: tap.done().bytes };
  let settle: (digest: BodyDigest) => void = () => undefined;
  const digest = new Promise<BodyDigest>((resolve) => {
    settle = resolve;
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    settle(tap.done().over!);
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of start.splice(0)) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read().catch((err: unknown) => {
        end();
        throw err;
      });
      if (done) {
        controller.close();
        end();
        return;
      }
      tap.add(value);
      controller.enqueue(value);
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return { whole: false, stream, digest };
}
