import type { Server } from 'node:http';
import { Socket } from 'node:net';
import { setImmediate } from 'node:timers';

/**
 * Answers leave once per turn of the event loop, one write per connection (docs/development.md,
 * "Why it is fast"): each write wakes the client it goes to, and the waking is paid by the writer.
 * The last uncork of a socket (Node's `res.end()` corks and uncorks) is put off to `setImmediate`,
 * after the turn's I/O; how much a connection may hold unsent is bounded by backpressure.ts.
 * `setImmediate` comes from `node:timers`, so a test that fakes the global timers still gets answers.
 * @example batchWrites(createServer(listener))
 */
export function batchWrites(server: Server): void {
  const pending = new Set<Socket>();
  const flush = () => {
    for (const socket of pending) {
      pending.delete(socket);
      uncorkNow.call(socket);
    }
  };
  const uncorkLater = function (this: Socket): void {
    if (this.writableCorked !== 1) {
      uncorkNow.call(this);
      return;
    }
    if (pending.size === 0) setImmediate(flush);
    pending.add(this);
  };
  server.on('connection', (socket: Socket) => {
    socket.uncork = uncorkLater;
  });
}

/** The socket's own uncork (Writable's). */
const uncorkNow = Socket.prototype.uncork;
