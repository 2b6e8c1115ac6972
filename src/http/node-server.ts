import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { DEFAULT_VERSION } from '../core/contract.js';
import { type ApiError, apiError, type ErrorCode, MESSAGES } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import { type Gates, whenAnswersLeave } from './backpressure.js';
import { errorEnvelope } from './render-error.js';
import { batchWrites } from './write-batching.js';

/** An unread body up to this size is read and discarded, and the connection stays usable. */
const DRAIN_BYTES = 64 * 1024;
/** Lingering close: how long and how much we keep reading after a `Connection: close` answer. */
const LINGER_MS = 2000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * The Node HTTP server for the app (`main.ts`, `startEmulator`). Beyond the adapter (inferred):
 * parser-level rejections get the error envelope, and an answer sent before the body was read (a
 * 413, a 401, a fault) keeps pooled clients safe: a small body is drained, a larger one gets
 * `Connection: close` and a lingering close (else undici's next request fails: other side closed).
 */
export function createNodeServer(
  app: { fetch: (req: Request, env: unknown) => Response | Promise<Response> },
  deps: Deps,
  /** Node's own timeouts (a slow request or slow headers answer 408), for tests. */
  options: Pick<
    ServerOptions,
    'requestTimeout' | 'headersTimeout' | 'connectionsCheckingInterval'
  > = {},
): Server {
  const listener = getRequestListener(app.fetch, {
    autoCleanupIncoming: false,
    errorHandler: (err) => errorResponse(deps, requestErrorOf(err)),
  });
  const gates: Gates = new WeakMap();
  const server = createServer({ ...options, requireHostHeader: false }, (incoming, outgoing) => {
    if (incoming.httpVersion === '1.1' && incoming.headers.host === undefined) {
      // API document section 7 envelope instead of Node's bare 400 (RFC 9112 section 3.2).
      const err = apiError('request_malformed', { message: MESSAGES.hostRequired });
      outgoing.shouldKeepAlive = false;
      writeEnvelope(outgoing, deps, err);
      incoming.resume();
      return;
    }
    guardEarlyAnswer(incoming, outgoing);
    whenAnswersLeave(gates, incoming, outgoing, () => void listener(incoming, outgoing));
  });
  batchWrites(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(deps, err, socket),
  );
  // Node answers an `Expect` it does not know with a bare 417, and closes on CONNECT unanswered.
  server.on('checkExpectation', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const message = MESSAGES.expectation(incoming.headers.expect ?? '');
    writeEnvelope(outgoing, deps, apiError('expectation_failed', { message }));
    incoming.resume();
  });
  server.on('connect', (_incoming: IncomingMessage, socket: Duplex) =>
    writeRaw(deps, socket, apiError('method_not_allowed', { message: MESSAGES.connectRefused })),
  );
  return server;
}

function requestErrorOf(err: unknown): ApiError {
  if (err instanceof RequestError) {
    return apiError('request_malformed', { message: MESSAGES.malformedRequest });
  }
  console.error('[svc-emulator] unexpected error outside the app:', err);
  return apiError('api_error');
}

/** An error envelope answered outside the app, and its headers (the connection then closes). */
function envelope(deps: Deps, err: ApiError) {
  const requestId = deps.ids.requestId(deps.systemClock.now());
  const body = JSON.stringify(errorEnvelope(err, requestId));
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    'Service-Version': DEFAULT_VERSION,
    Connection: 'close',
  };
  return { body, headers };
}

function errorResponse(deps: Deps, err: ApiError): Response {
  // The adapter writes Content-Length itself.
  const { body, headers } = envelope(deps, err);
  const { 'Content-Length': _, ...rest } = headers;
  return new Response(body, { status: err.status, headers: rest });
}

function writeEnvelope(outgoing: ServerResponse, deps: Deps, err: ApiError): void {
  const { body, headers } = envelope(deps, err);
  outgoing.writeHead(err.status, headers);
  outgoing.end(body);
}

/** Node's parser error codes onto the catalog (our inference; Node answers these with no body). */
const CLIENT_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'request_header_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

function answerClientError(deps: Deps, err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') socket.destroy();
  else writeRaw(deps, socket, apiError(CLIENT_ERRORS[err.code ?? ''] ?? 'request_malformed'));
}

/** The envelope written straight to a socket Node has not made a response for, then closed. */
function writeRaw(deps: Deps, socket: Duplex, err: ApiError): void {
  const { body, headers } = envelope(deps, err);
  const head = [
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Bad Request'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  lingerThenDestroy(socket);
}

/** An answer sent before the body was read: a small body is drained, else close and linger. */
function guardEarlyAnswer(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const writeHead = outgoing.writeHead;
  outgoing.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!incoming.readableEnded && !smallBody(incoming)) {
      this.shouldKeepAlive = false;
      this.setHeader('Connection', 'close');
      const socket = incoming.socket;
      socket.destroySoon = () => {
        socket.end();
        lingerThenDestroy(socket);
      };
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof outgoing.writeHead;
  outgoing.on('finish', () => {
    if (!incoming.readableEnded) incoming.resume();
  });
}

/** No body (neither header: a GET), or a `Content-Length` small enough to drain. */
function smallBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  if (incoming.headers['transfer-encoding'] !== undefined) return false;
  return length === undefined || Number(length) <= DRAIN_BYTES;
}

/** Keeps reading and discarding for a bounded time and size, so the client is not reset. */
function lingerThenDestroy(socket: Duplex): void {
  let read = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) socket.destroy();
  });
  socket.on('close', () => clearTimeout(timer));
  socket.resume();
}
