import type { Server } from 'node:http';
import { Socket } from 'node:net';
import { setImmediate } from 'node:timers';

/**
 * Answers leave once per turn of the event loop (issue 12): what the turn's requests answered is
 * written when the turn's I/O callbacks are done, one write per connection, instead of one write
 * as each answer is made. Redis writes its replies the same way, before the loop sleeps.
 *
 * Why: a write on loopback wakes the client that waits for it, and the waking is paid by the
 * writer. Under load the loop takes several requests a turn (10 connections: about 5.5 a turn,
 * counted for keys/me and for the resume alike); a client woken for the first answer is still
 * awake for the others. Measured with `npm run bench`
 * (server CPU per request, medians of 3 alternating rounds, several runs on a noisy host):
 * keys/me 43 to 52 us before, 33 to 38 after; the 404 0.76 to 0.79 times keys/me before, 0.90
 * after, the 400 0.78 before, 0.92 after; the resume write 228 to 281 us before, 169 to 199
 * after, and its p99 at 50 connections 24 to 31 ms before, 20 to 24 after. In a CPU profile over
 * the socket the `writev` of a resume went from 54 to 18-23 us.
 *
 * How: Node's `res.end()` corks the socket, writes the head and body, and uncorks it fully. The
 * last uncork of each socket is put off to `setImmediate`, which runs after the turn's I/O
 * callbacks; the socket stays corked till then, so its writes gather in its buffer. An uncork
 * that leaves the socket corked still happens at once. `setImmediate` comes from `node:timers`:
 * a test that fakes the global timers (`vi.useFakeTimers()`) does not stop answers.
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
