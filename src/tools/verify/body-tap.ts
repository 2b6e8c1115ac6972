/**
 * Answer bodies as verify and the proxy read them: to their end, each byte counted and hashed, but
 * kept only while the body is within a limit. Over it, an answer is shown by its size and SHA-256
 * (`{bytes, sha256}`, as an archive is), so a target answering a gigabyte costs no gigabyte.
 */
import { createHash, type Hash } from 'node:crypto';

/** The most of one answer's body kept in memory: a page of the API is at most 1 MiB. */
export const MAX_KEPT_BODY_BYTES = 8 * 1024 * 1024;

/** A body too large to keep: its size and digest. */
export interface BodyDigest {
  bytes: number;
  sha256: string;
}

export class BodyTap {
  private readonly hash: Hash = createHash('sha256');
  private kept: Buffer[] | null = [];
  private size = 0;

  constructor(private readonly limit: number = MAX_KEPT_BODY_BYTES) {}

  /** Whether the body has gone over the limit: its bytes are no longer kept. */
  get over(): boolean {
    return this.kept === null;
  }

  /** Counts and hashes a chunk; keeps it while the body is within the limit. */
  add(chunk: Uint8Array): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    // A view of the chunk, not a copy: the proxy forwards the same chunks it keeps.
    if (this.kept && this.size <= this.limit)
      this.kept.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    else this.kept = null;
  }

  /** Once the body is read: its bytes, or (over the limit) none and its size and digest. */
  done(): { bytes: Buffer; over?: BodyDigest } {
    if (this.kept) return { bytes: Buffer.concat(this.kept) };
    return { bytes: Buffer.alloc(0), over: { bytes: this.size, sha256: this.hash.digest('hex') } };
  }
}

/**
 * Reads a whole body through a tap.
 * @example const { bytes, over } = await readBody(res.body);
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  limit?: number,
): Promise<{ bytes: Buffer; over?: BodyDigest }> {
  const tap = new BodyTap(limit);
  if (body) for await (const chunk of body) tap.add(chunk);
  return tap.done();
}
