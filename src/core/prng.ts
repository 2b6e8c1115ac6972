import { sha256 } from './sha256.js';

/** The four 32-bit words of a stream's state: where it stands, to resume it later. */
export type PrngState = readonly [number, number, number, number];

/** A function returning uniformly distributed numbers in [0, 1), and where it stands. */
export interface Prng {
  (): number;
  /** Its state now: `createPrng(seed, stream, state)` draws on from here (world snapshots). */
  state(): PrngState;
}

/**
 * A seeded PRNG (sfc32) for one named stream; streams are independent, so one account's draws never
 * shift another's. With the id and clock modules, the only source of randomness and time.
 * `from` resumes the stream at a state another one reported.
 * @example const draw = createPrng('0', 'faults'); draw() // same value for the same seed
 */
export function createPrng(seed: string, stream: string, from?: PrngState): Prng {
  const digest = sha256(`${seed}\0${stream}`);
  const start: PrngState = from ?? [
    digest.readUInt32LE(0),
    digest.readUInt32LE(4),
    digest.readUInt32LE(8),
    digest.readUInt32LE(12),
  ];
  let [a, b, c, d] = start;
  const draw = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  return Object.assign(draw, { state: (): PrngState => [a >>> 0, b >>> 0, c >>> 0, d >>> 0] });
}

/** Deterministic bytes for a (seed, stream, counter) triple: random-access, no state to keep. */
export function seededBytes(seed: string, stream: string, counter: number, length = 10): Buffer {
  return sha256(`${seed}\0${stream}\0${counter}`).subarray(0, length);
}
