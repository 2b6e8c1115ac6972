/**
 * A bundle read back (`--bundle FILE`, `svc-emulator replay FILE`): unpacked, its manifest,
 * calls and attempts checked line by line, refused whole with a sentence saying why (another
 * version, not a bundle, changed or cut short). Its snapshot is checked when loaded
 * (load-bundle.ts), as any snapshot file is.
 */
import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import { FileRefused, readRegularBytes } from '../../core/bounded-read.js';
import { MESSAGES } from '../../core/errors.js';
import {
  AttemptEvent,
  BUNDLE_FILE_MAX_BYTES,
  BUNDLE_FORMAT,
  BUNDLE_ROOT,
  BundleManifest,
  RecordedCall,
} from './bundle-contract.js';

/** What is wrong with a bundle file, in a sentence; the caller names the file. */
export class BundleFileError extends Error {}

/** A bundle as read: what its four members hold. */
export interface Bundle {
  manifest: BundleManifest;
  /** The world (or the account) at the mark: a snapshot file, checked when loaded. */
  snapshot: unknown;
  calls: RecordedCall[];
  attempts: AttemptEvent[];
}

/** Reads a bundle file from disk (a regular file of at most 256 MiB). */
export function readBundleFile(path: string, version: string): Bundle {
  let bytes: Buffer;
  try {
    bytes = readRegularBytes(path, BUNDLE_FILE_MAX_BYTES, 'a bundle');
  } catch (err) {
    if (err instanceof FileRefused) throw new BundleFileError(err.message);
    throw new BundleFileError(`cannot read it: ${(err as Error).message}`);
  }
  return parseBundle(bytes, version);
}

/**
 * A bundle's bytes read: a bundle of another emulator version is refused, naming both.
 * @example parseBundle(readFileSync('svc-emulator-bundle.tar.gz'), '0.1.0')
 */
export function parseBundle(bytes: Buffer, version: string): Bundle {
  let files: Map<string, Buffer>;
  try {
    files = untar(gunzipSync(bytes, { maxOutputLength: 4 * BUNDLE_FILE_MAX_BYTES }));
  } catch (err) {
    if (err instanceof BundleFileError) throw err;
    throw new BundleFileError(MESSAGES.bundleNotFile);
  }
  const text = (name: string) => {
    const found = files.get(`${BUNDLE_ROOT}/${name}`);
    if (!found) throw new BundleFileError(MESSAGES.bundleCorrupt(`it has no ${name}`));
    return found.toString('utf8');
  };
  if (!files.has(`${BUNDLE_ROOT}/manifest.json`)) throw new BundleFileError(MESSAGES.bundleNotFile);
  const raw = json(text('manifest.json'), 'manifest.json') as { format?: unknown };
  if (raw?.format !== BUNDLE_FORMAT) throw new BundleFileError(MESSAGES.bundleNotFile);
  const saved = (raw as { emulator_version?: unknown }).emulator_version;
  if (saved !== version) throw new BundleFileError(MESSAGES.bundleVersion(String(saved), version));
  const manifest = checked(BundleManifest, raw, 'manifest.json');
  const calls = jsonLines(text('calls.jsonl'), 'calls.jsonl', RecordedCall);
  if (calls.length !== manifest.calls)
    throw new BundleFileError(
      MESSAGES.bundleCorrupt(
        `calls.jsonl has ${calls.length} calls, its manifest says ${manifest.calls}`,
      ),
    );
  const attempts = jsonLines(text('webhooks.jsonl'), 'webhooks.jsonl', AttemptEvent);
  return { manifest, snapshot: json(text('snapshot.json'), 'snapshot.json'), calls, attempts };
}

function json(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BundleFileError(MESSAGES.bundleCorrupt(`${name} is not JSON`));
  }
}

function checked<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  throw new BundleFileError(
    MESSAGES.bundleCorrupt(`${where}${path ? `, ${path}` : ''}: ${issue.message}`),
  );
}

function jsonLines<T extends z.ZodType>(text: string, name: string, schema: T): z.infer<T>[] {
  const lines = text.split('\n').filter((line) => line !== '');
  return lines.map((line, i) =>
    checked(schema, json(line, `${name} line ${i + 1}`), `${name} line ${i + 1}`),
  );
}

/** The regular files of a ustar archive, by path (the archive writer's own kind: core/archive.ts). */
function untar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number) =>
      header.toString('utf8', from, from + length).replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || at + 512 + size > tar.length)
      throw new BundleFileError(MESSAGES.bundleCorrupt('its archive is cut short'));
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const type = field(156, 1);
    if (type === '0' || type === '') files.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
