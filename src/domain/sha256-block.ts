/** SHA-256's round constants (FIPS 180-4 section 4.2.2). */
const K = Int32Array.of(
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
);

/** Longest text one block holds: 64 bytes less the 0x80 byte and the 8-byte length. */
const ONE_BLOCK = 55;

/**
 * SHA-256 of a short ASCII string (at most 55 characters: one block), computed in JavaScript;
 * undefined for any other string. Request ids hash `seed\0requests\0n` on every request, and
 * Node's native call for a few bytes cost about 1 to 2 us in-process, more under load, against
 * about 0.5 us here (issue 12). Checked against `crypto.hash` in test/domain/sha256.test.ts.
 * @example sha256Block('abc')?.toString('hex') // 'ba7816bf...'
 */
export function sha256Block(text: string): Buffer | undefined {
  const n = text.length;
  if (n > ONE_BLOCK) return undefined;
  // The message schedule; the first 16 words are the padded block, big-endian.
  const w = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch > 0x7f) return undefined;
    w[i >> 2]! |= ch << (24 - (i & 3) * 8);
  }
  w[n >> 2]! |= 0x80 << (24 - (n & 3) * 8);
  w[15] = n * 8;
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w.push((w[i - 16]! + s0 + w[i - 7]! + s1) | 0);
  }
  let a = 0x6a09e667;
  let b = 0xbb67ae85 | 0;
  let c = 0x3c6ef372;
  let d = 0xa54ff53a | 0;
  let e = 0x510e527f;
  let f = 0x9b05688c | 0;
  let g = 0x1f83d9ab;
  let h = 0x5be0cd19;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const out = Buffer.allocUnsafe(32);
  out.writeInt32BE((0x6a09e667 + a) | 0, 0);
  out.writeInt32BE((0xbb67ae85 + b) | 0, 4);
  out.writeInt32BE((0x3c6ef372 + c) | 0, 8);
  out.writeInt32BE((0xa54ff53a + d) | 0, 12);
  out.writeInt32BE((0x510e527f + e) | 0, 16);
  out.writeInt32BE((0x9b05688c + f) | 0, 20);
  out.writeInt32BE((0x1f83d9ab + g) | 0, 24);
  out.writeInt32BE((0x5be0cd19 + h) | 0, 28);
  return out;
}
