import { hash } from 'node:crypto';

/**
 * The SHA-256 digest of `data` (a string is hashed as its UTF-8 bytes), with Node's one-shot
 * `crypto.hash` (Node 20.12 and later).
 * @example sha256('abc').toString('hex') // 'ba7816bf...'
 */
export function sha256(data: string | Uint8Array): Buffer {
  return hash('sha256', data, 'buffer');
}

/**
 * The SHA-256 digest of `data` as lowercase hex.
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** SHA-256 of a key secret: how secrets are stored and looked up. */
export function digestSecret(secret: string): Buffer {
  return sha256(secret);
}
