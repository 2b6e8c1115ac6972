/**
 * Output backpressure per connection (inferred): a client that pipelines requests and does not
 * read its answers must not make the emulator hold all of them. Node parses a whole chunk of
 * pipelined requests at once and queues every answer in memory; so a connection's requests are
 * handed to the app only while fewer than `IN_FLIGHT_MAX` of its answers are unsent and its
 * socket buffers less than `BUFFERED_MAX` bytes. The rest wait, in order, until answers leave.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Answers of one connection the app may have made and not yet handed to the network. */
export const IN_FLIGHT_MAX = 8;
/** What a connection's socket may hold unsent before its next request waits for it to drain. */
export const BUFFERED_MAX = 1024 * 1024;

interface Gate {
  inFlight: number;
  waiting: (() => void)[];
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
    gate = { inFlight: 0, waiting: [] };
    gates.set(socket, gate);
    socket.on('drain', () => admit(socket, gate!));
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
}

/** Hands waiting requests to the app while the connection's answers are leaving. */
function admit(socket: Socket, gate: Gate): void {
  while (
    gate.waiting.length > 0 &&
    gate.inFlight < IN_FLIGHT_MAX &&
    socket.writableLength < BUFFERED_MAX
  ) {
    gate.waiting.shift()!();
  }
}
