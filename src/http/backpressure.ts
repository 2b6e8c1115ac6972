/**
 * Output backpressure per connection (inferred): a client that pipelines requests and does not
 * read its answers must not make the emulator hold all of them. Node parses a whole chunk of
 * pipelined requests at once and queues every answer in memory; so a connection's requests are
 * handed to the app only while fewer than `IN_FLIGHT_MAX` of its answers are unsent and its
 * socket buffers less than `BUFFERED_MAX` bytes. The rest wait, in order, until answers leave.
 * Node stops reading a connection by its answers' unsent bytes, which the ones waiting here do
 * not have yet: so once `WAITING_MAX` wait, reading stops the way Node stops it (`_paused`, the
 * socket and then the parser paused). A client that never reads holds at most the requests of one
 * read (64 KiB) beyond its answers; reading goes on once half of the waiting are handed over.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Answers of one connection the app may have made and not yet handed to the network. */
export const IN_FLIGHT_MAX = 8;
/** What a connection's socket may hold unsent before its next request waits for it to drain. */
export const BUFFERED_MAX = 1024 * 1024;
/** Requests of one connection parsed and waiting for its answers to leave, before reading stops. */
export const WAITING_MAX = 16;

interface Gate {
  inFlight: number;
  waiting: (() => void)[];
  /** Reading stopped by this gate (`pauseReading`) until `goOnReading`. */
  stopped: boolean;
}

/** What Node's HTTP server keeps on a connection's socket to stop and resume reading it. */
interface ServedSocket extends Socket {
  _paused?: boolean;
  parser?: { resume(): void } | null;
}

/** The gates of one server's connections. */
export type Gates = WeakMap<Socket, Gate>;

/**
 * Runs `serve` now, or once the connection's earlier answers have gone out. The socket is the
 * request's: a queued answer has none of its own until the ones before it have left.
 * @example whenAnswersLeave(gates, incoming, outgoing, () => listener(incoming, outgoing))
 */
export function whenAnswersLeave(
  gates: Gates,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  serve: () => void,
): void {
  const socket = incoming.socket;
  let gate = gates.get(socket);
  if (!gate) {
    gate = { inFlight: 0, waiting: [], stopped: false };
    gates.set(socket, gate);
    socket.on('drain', () => admit(socket, gate!));
    socket.on('resume', () => {
      if (gate!.stopped) pauseReading(socket);
    });
  }
  gate.waiting.push(() => {
    gate!.inFlight++;
    let done = false;
    const left = () => {
      if (done) return;
      done = true;
      gate!.inFlight--;
      admit(socket, gate!);
    };
    outgoing.once('finish', left);
    outgoing.once('close', left);
    serve();
  });
  admit(socket, gate);
  if (gate.waiting.length >= WAITING_MAX && !gate.stopped) {
    gate.stopped = true;
    pauseReading(socket);
  }
}

/**
 * Stops reading the connection the way Node stops a pipelining client whose answers pile up
 * (`parserOnIncoming`): `_paused` set, which keeps a request's body from resuming the socket, and
 * the socket paused, which stops its reads; Node pauses the parser too once the read being parsed
 * is done. Node clears `_paused` and resumes each time an answer queued behind another is written
 * (`socketOnDrain`), by its own measure; the socket's `resume` listener pauses it again.
 */
function pauseReading(socket: ServedSocket): void {
  socket._paused = true;
  socket.pause();
}

/** Reading the connection again, as Node's `socketOnDrain` does. */
function goOnReading(socket: ServedSocket, gate: Gate): void {
  gate.stopped = false;
  socket._paused = false;
  socket.parser?.resume();
  socket.resume();
}

/** Hands waiting requests to the app while the connection's answers are leaving. */
function admit(socket: Socket, gate: Gate): void {
  // A closed connection's waiting requests are not handed to the app: no one would read them.
  if (socket.destroyed) {
    gate.waiting.length = 0;
    return;
  }
  while (
    gate.waiting.length > 0 &&
    gate.inFlight < IN_FLIGHT_MAX &&
    socket.writableLength < BUFFERED_MAX
  ) {
    gate.waiting.shift()!();
  }
  if (gate.stopped && gate.waiting.length <= WAITING_MAX / 2) goOnReading(socket, gate);
}
