import { sha256 } from './domain/sha256.js';

/** A function returning uniformly distributed numbers in [0, 1). */
export type Prng = () => number;

/**
 * A seeded PRNG (sfc32) for one named stream; streams are independent, so one account's draws never
 * shift another's. With the id and clock modules, the only source of randomness and time.
 * @example const draw = createPrng('0', 'faults'); draw() // same value for the same seed
 */
export function createPrng(seed: string, stream: string): Prng {
  const digest = sha256(`${seed}\0${stream}`);
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
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
}

/** Deterministic bytes for a (seed, stream, counter) triple: random-access, no state to keep. */
export function seededBytes(seed: string, stream: string, counter: number, length = 10): Buffer {
  return sha256(`${seed}\0${stream}\0${counter}`).subarray(0, length);
}
