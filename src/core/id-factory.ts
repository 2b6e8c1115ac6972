import { type IdPrefix, idOf, makeId } from './ids.js';
import { createPrng, type Prng, type PrngState } from './prng.js';
import type { SequenceRepo } from './sqlite/sequences.js';

/** Ids per (scope, prefix) stream, persisted: an account's ids depend on its own history only. */
export function createIdFactory(seed: string, sequences: SequenceRepo) {
  // Request ids are drawn from one seeded stream, restarted by a full reset: never stored, they
  // need no random access by counter as stored ids do.
  let draw: Prng = createPrng(seed, 'requests');
  const bytes = Buffer.alloc(12);
  return {
    /** @example ids.next('whe', account.id, clock.now()) */
    next(prefix: IdPrefix, scope: string, timeMs: number): string {
      const stream = `${scope}/${prefix}`;
      return makeId(prefix, timeMs, seed, stream, sequences.next(stream));
    },
    /** The id `next` would make at `counter`, for a stream counted elsewhere (events). */
    numbered(prefix: IdPrefix, scope: string, timeMs: number, counter: number): string {
      return makeId(prefix, timeMs, seed, `${scope}/${prefix}`, counter);
    },
    /** The next request id: the same sequence for the same seed after every full reset. */
    requestId(timeMs: number): string {
      for (let i = 0; i < 12; i += 4) bytes.writeUInt32BE(Math.floor(draw() * 2 ** 32), i);
      return idOf('req', timeMs, bytes);
    },
    resetRequests(): void {
      draw = createPrng(seed, 'requests');
    },
    /** Where the request-id stream stands, for a world snapshot. */
    requestState: (): PrngState => draw.state(),
    /** Resumes the request-id stream where a snapshot left it. */
    restoreRequests(state: PrngState): void {
      draw = createPrng(seed, 'requests', state);
    },
  };
}
export type IdFactory = ReturnType<typeof createIdFactory>;
