import { sha256 } from '../core/sha256.js';

/**
 * A draw in [0, 1) that depends only on `key` and `label`: how every kind's outputs are drawn.
 * @example draw(requestHash, 'reward:3') // the same number for the same request, every time
 */
export function draw(key: string, label: string): number {
  return sha256(`${key}:${label}`).readUInt32BE(0) / 2 ** 32;
}
