/**
 * A recorded answer against the emulator's answer to the same request (`drift`). Compared: the
 * status, the error's type, code and param, every `object` name, and the presence and JSON type
 * of every field; not compared: other values (ids, timestamps, progress and counts depend on the
 * moment and the world), nor a null against a value (a field filled later, like `completed_at`).
 * Two statuses that differ are one difference, naming both with their codes: the bodies of two
 * different answers differ in every field for that one cause.
 */

import type { Verdict } from './judge.js';
import { MASK } from './mask.js';
import type { Difference, ShownAnswer } from './report-types.js';
import { jsonType } from './schema-terms.js';

/** Number and integer are one type here: `2` and `2.5` are both numbers to a client. */
function kind(value: unknown): string {
  const t = jsonType(value);
  return t === 'integer' ? 'number' : t;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Fields whose values are compared: the names of things and what an error says. */
function valueCompared(path: string): boolean {
  const p = path.replace(/\[\d+\]/g, '');
  return (
    p === 'object' ||
    p.endsWith('.object') ||
    ['error.type', 'error.code', 'error.param'].includes(p)
  );
}

/** The fields of `recorded` and `emulator` that differ in presence, type, or a compared value. */
export function compareShapes(recorded: unknown, emulator: unknown, path = ''): Difference[] {
  const field = path === '' ? 'body' : `body.${path}`;
  if (valueCompared(path))
    return recorded === emulator ? [] : [{ field, expected: recorded, actual: emulator }];
  if (recorded === null || emulator === null || recorded === MASK || emulator === MASK) return [];
  if (kind(recorded) !== kind(emulator))
    return [{ field, expected: kind(recorded), actual: kind(emulator) }];
  if (Array.isArray(recorded) && Array.isArray(emulator)) {
    if (recorded.length === 0 || emulator.length === 0) return [];
    return compareShapes(recorded[0], emulator[0], join(path, 0));
  }
  if (kind(recorded) !== 'object') return [];
  const a = recorded as Record<string, unknown>;
  const b = emulator as Record<string, unknown>;
  const out: Difference[] = [];
  for (const key of Object.keys(a)) {
    if (key in b) out.push(...compareShapes(a[key], b[key], join(path, key)));
    else
      out.push({
        field: `body.${join(path, key)}`,
        expected: 'present (the service sends it)',
        actual: 'missing',
      });
  }
  for (const key of Object.keys(b))
    if (!(key in a))
      out.push({
        field: `body.${join(path, key)}`,
        expected: 'absent (the service does not send it)',
        actual: 'present',
      });
  return out;
}

/** The headers both answers should agree on. */
const COMPARED_HEADERS = ['service-version', 'content-type'];

/** An answer's outcome as a report names it: `201`, `502 launch_failed`. */
function outcome(answer: ShownAnswer): string {
  const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? `${answer.status} ${code}` : String(answer.status);
}

export function compareAnswers(recorded: ShownAnswer, emulator: ShownAnswer): Verdict {
  const v: Verdict = { matched: [], differences: [] };
  const note = (field: string, ok: boolean, expected: unknown, actual: unknown) => {
    if (ok) v.matched.push(field);
    else v.differences.push({ field, expected, actual });
  };
  if (recorded.status !== emulator.status) {
    note('status', false, outcome(recorded), outcome(emulator));
    return v;
  }
  note('status', true, recorded.status, emulator.status);
  for (const name of COMPARED_HEADERS) {
    const a = recorded.headers[name]?.split(';')[0]?.trim();
    const b = emulator.headers[name]?.split(';')[0]?.trim();
    if (a !== undefined) note(`header ${name}`, a === b, a, b ?? 'missing');
  }
  const bothJson = !isDigest(recorded.body) && !isDigest(emulator.body);
  if (bothJson && recorded.body !== undefined && emulator.body !== undefined) {
    const found = compareShapes(recorded.body, emulator.body);
    if (found.length === 0) v.matched.push('body shape');
    v.differences.push(...found);
  }
  return v;
}

/** A body shown by size and digest (an archive): its bytes are not compared. */
function isDigest(body: unknown): boolean {
  return !!body && typeof body === 'object' && 'sha256' in body && 'bytes' in body;
}
