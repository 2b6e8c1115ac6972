/**
 * Serialises a JSON-compatible value canonically, so equal data yields the same string and hash
 * whatever its key order: keys sorted by UTF-16 code units, recursively; no whitespace; values
 * written as `JSON.stringify` writes them (`undefined` properties omitted, `toJSON` applied).
 * Throws a `TypeError` on what would hash wrongly: non-finite numbers, BigInt, functions, symbols,
 * cycles, a top-level `undefined`, and objects other than plain ones and arrays.
 * @example canonicalJson({ b: [2, 1], a: { d: undefined, c: 'x' } }) // '{"a":{"c":"x"},"b":[2,1]}'
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new TypeError('canonicalJson: cannot serialise undefined');
  return write(value, new Set<object>(), '$');
}

export { sha256Hex } from './sha256.js';

/** Writes one value; `seen` holds the objects on the current path, to reject cycles. */
function write(input: unknown, seen: Set<object>, where: string): string {
  // Applied once per position, as `JSON.stringify` does, so a `toJSON` returning `this` terminates.
  const toJSON = (input as { toJSON?: unknown } | null)?.toJSON;
  const value =
    typeof input === 'object' && typeof toJSON === 'function' ? toJSON.call(input, '') : input;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: non-finite number ${value} at ${where}`);
      return JSON.stringify(value);
    case 'object':
      return value === null ? 'null' : writeObject(value, seen, where);
    default:
      // bigint, function, symbol, and undefined where a value is required.
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value} at ${where}`);
  }
}

function writeObject(value: object, seen: Set<object>, where: string): string {
  if (seen.has(value)) throw new TypeError(`canonicalJson: cycle at ${where}`);
  seen.add(value);
  const text = Array.isArray(value)
    ? writeArray(value, seen, where)
    : writePlainObject(value, seen, where);
  seen.delete(value);
  return text;
}

function writeArray(items: unknown[], seen: Set<object>, where: string): string {
  // Array.from visits holes too, as `JSON.stringify` does.
  const parts = Array.from(items, (item, i) =>
    item === undefined ? 'null' : write(item, seen, `${where}[${i}]`),
  );
  return `[${parts.join(',')}]`;
}

function writePlainObject(value: object, seen: Set<object>, where: string): string {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const kind = (proto as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new TypeError(`canonicalJson: cannot serialise a ${kind} at ${where}`);
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  // The default sort compares UTF-16 code units, which is the order this format promises.
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${write(item, seen, `${where}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}

/** A JSON file of an archive: two-space indented, one trailing newline. */
export const jsonFile = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A JSON file of an archive with its keys in canonical order, so its bytes never vary. */
export const canonicalJsonFile = (value: unknown) => jsonFile(JSON.parse(canonicalJson(value)));
