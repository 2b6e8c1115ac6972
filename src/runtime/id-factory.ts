import { type IdPrefix, makeId } from '../ids.js';
import type { SequenceRepo } from '../store/sequences.js';

/** Ids per (scope, prefix) stream, persisted: an account's ids depend on its own history only. */
export function createIdFactory(seed: string, sequences: SequenceRepo) {
  let requestCounter = 0;
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
    /** Request ids are not stored as keys, so an in-memory counter is enough. */
    requestId(timeMs: number): string {
      requestCounter += 1;
      return makeId('req', timeMs, seed, 'requests', requestCounter);
    },
    resetRequests(): void {
      requestCounter = 0;
    },
  };
}
export type IdFactory = ReturnType<typeof createIdFactory>;
