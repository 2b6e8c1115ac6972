import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { DEFAULT_VERSION } from '../core/contract.js';
import { errorEnvelope } from '../core/envelope.js';
import { type ApiError, apiError, type ErrorCode, MESSAGES } from '../core/errors.js';
import type { Deps } from '../engine/deps.js';
import { type Gates, whenAnswersLeave } from './backpressure.js';
import { batchWrites } from './write-batching.js';

/** An unread body up to this size is read and discarded, and the connection stays usable. */
const DRAIN_BYTES = 64 * 1024;
/** Lingering close: how long and how much we keep reading after a `Connection: close` answer. */
const LINGER_MS = 2000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Wall time a client has to send its headers (`--headers-timeout`), and its whole request, body
 * included (`--request-timeout`): Node's own are 60 s and 300 s. A request is at most 1 MiB, sent
 * in one go by SDKs; an answer (an archive download) is not bound by either.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** How often Node looks for requests past those timeouts (its default, 30 s, lets one run over). */
const TIMEOUT_CHECK_MS = 1000;

/** Node's own timeouts (a slow request or slow headers answer 408); 0 turns one off. */
export type ServerTimeouts = Pick<
  ServerOptions,
  'requestTimeout' | 'headersTimeout' | 'connectionsCheckingInterval'
>;

/**
 * The Node HTTP server for the app (`main.ts`, `startEmulator`). Beyond the adapter (inferred):
 * parser-level rejections get the error envelope, and an answer sent before the body was read (a
 * 413, a 401, a fault) keeps pooled clients safe: a small body is drained, a larger one gets
 * `Connection: close` and a lingering close (else undici's next request fails: other side closed).
 */
export function createNodeServer(
  app: { fetch: (req: Request, env: unknown) => Response | Promise<Response> },
  deps: Deps,
  timeouts: ServerTimeouts = {},
): Server {
  const listener = getRequestListener(app.fetch, {
    autoCleanupIncoming: false,
    errorHandler: (err) => errorResponse(deps, requestErrorOf(err)),
  });
  const gates: Gates = new WeakMap();
  /** Connections whose request was answered before its body had come (until it has). */
  const answeredEarly = new WeakSet<Duplex>();
  const options = {
    ...nodeTimeouts(timeouts),
    requireHostHeader: false,
    ServerResponse: guardedResponse(answeredEarly),
  };
  const server = createServer(options, (incoming, outgoing) => {
    if (incoming.httpVersion === '1.1' && incoming.headers.host === undefined) {
      // API document section 7 envelope instead of Node's bare 400 (RFC 9112 section 3.2).
      const err = apiError('request_malformed', { message: MESSAGES.hostRequired });
      outgoing.shouldKeepAlive = false;
      writeEnvelope(outgoing, deps, err);
      incoming.resume();
      return;
    }
    whenAnswersLeave(gates, incoming, outgoing, () => void listener(incoming, outgoing));
  });
  batchWrites(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(deps, err, socket, answeredEarly),
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

/** `--headers-timeout` and `--request-timeout` as the server takes them. */
export function serverTimeouts(config: {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}): ServerTimeouts {
  return { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs };
}

/** The timeouts with our defaults; the headers' at most the request's (Node refuses more). */
function nodeTimeouts(timeouts: ServerTimeouts): ServerTimeouts {
  const requestTimeout = timeouts.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = timeouts.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS;
  return {
    requestTimeout,
    headersTimeout: requestTimeout > 0 ? Math.min(headersTimeout, requestTimeout) : headersTimeout,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval ?? TIMEOUT_CHECK_MS,
  };
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

function answerClientError(
  deps: Deps,
  err: NodeJS.ErrnoException,
  socket: Duplex,
  answeredEarly: WeakSet<Duplex>,
): void {
  // A request already answered gets no second answer when its body is too late: only closed.
  const answered = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && answeredEarly.has(socket);
  if (!socket.writable || err.code === 'ECONNRESET' || answered) socket.destroy();
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

/**
 * Node's answer, guarded for a request answered before its body was read (a 413, a 401, a fault),
 * in `writeHead`, which every answer passes (`end()` calls it when no one has): a small body is
 * drained (Node's own `_dump` once the answer is sent; resumed here if a reader paused it), a
 * larger one gets `Connection: close` and a lingering close. A class of Node's, not a wrapper
 * set on each answer: a request with a body pays no closure and no listener of its own.
 */
function guardedResponse(answeredEarly: WeakSet<Duplex>) {
  return class GuardedResponse extends ServerResponse {
    override writeHead(...args: unknown[]): this {
      const incoming = this.req;
      if (!incoming.readableEnded && framesBody(incoming)) guardEarlyAnswer(this, answeredEarly);
      return (super.writeHead as (...a: unknown[]) => this)(...args);
    }
  };
}

/** An answer about to be sent before its request's body has all been read. */
function guardEarlyAnswer(outgoing: ServerResponse, answeredEarly: WeakSet<Duplex>): void {
  const incoming = outgoing.req;
  // Typed as always there, but null once the connection is gone (a client that left mid-body).
  const socket = incoming.socket as Socket | null;
  if (socket && !incoming.complete) {
    answeredEarly.add(socket);
    incoming.once('end', () => answeredEarly.delete(socket));
  }
  if (!smallBody(incoming)) {
    outgoing.shouldKeepAlive = false;
    outgoing.setHeader('Connection', 'close');
    if (socket) {
      socket.destroySoon = () => {
        socket.end();
        lingerThenDestroy(socket);
      };
    }
  }
  // Never read, Node dumps it once the answer is sent; a reader that paused it would hold it.
  if (incoming.readableFlowing === false) outgoing.once('finish', () => incoming.resume());
}

/** A body is framed: `Content-Length` over 0, or chunked. */
function framesBody(incoming: IncomingMessage): boolean {
  const { 'content-length': length, 'transfer-encoding': chunked } = incoming.headers;
  return chunked !== undefined || Number(length ?? 0) > 0;
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
