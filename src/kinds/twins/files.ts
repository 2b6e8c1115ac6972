import { sha256Hex } from '../../domain/canonical-json.js';
import type { FileEntry } from '../../domain/records.js';

/** Deterministic stand-in files of a twin's archive: digests of bytes derived from the id. */
export function generateTwinFiles(twinId: string, count: number): FileEntry[] {
  const files: FileEntry[] = [];
  for (let i = 0; i < count; i++) {
    const path = `scene/part_${String(i).padStart(5, '0')}.usd`;
    const content = `#usda 1.0\n# twin ${twinId}, part ${i}\n`;
    files.push({ path, bytes: Buffer.byteLength(content), sha256: sha256Hex(content) });
  }
  return files;
}
