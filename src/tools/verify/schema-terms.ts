/**
 * The report's terms for what ajv finds: a field as a dotted path with indexes (`data[0].status`),
 * what the contract wants there and what the value is, e.g. `one of "queued", "failed"` and
 * `"done"`, `present (required)` and `missing`, `string` and `integer`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';

/** The JSON type name of a value, `integer` for whole numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `path` and one more key, dotted. */
function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A branch's path (`[2].id`, `status`, or `` for the field itself) below the field's. */
export function below(prefix: string, path: string): string {
  return path === '' || path.startsWith('[') ? `${prefix}${path}` : join(prefix, path);
}

/** What the contract wants, and what the value is, for one ajv error. */
export function describe(e: ErrorObject, value: unknown): [string, string] {
  const p = e.params as Record<string, unknown>;
  const length = `${(value as { length?: number } | undefined)?.length}`;
  switch (e.keyword) {
    case 'required':
      return ['present (required)', 'missing'];
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return ['absent: the contract does not name it', shown(value)];
    case 'type':
      return [[p.type].flat().join(' or '), jsonType(value)];
    case 'enum':
      return [
        `one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        shown(value),
      ];
    case 'const':
      return [JSON.stringify(p.allowedValue), shown(value)];
    case 'minLength':
      return [`at least ${p.limit} characters`, length];
    case 'maxLength':
      return [`at most ${p.limit} characters`, length];
    case 'minItems':
      return [`at least ${p.limit} items`, length];
    case 'maxItems':
      return [`at most ${p.limit} items`, length];
    case 'pattern':
      return [`matching ${p.pattern}`, shown(value)];
    case 'format':
      return [
        p.format === 'date-time' ? 'an RFC 3339 date-time' : `format ${p.format}`,
        shown(value),
      ];
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return [`${p.comparison} ${p.limit}`, shown(value)];
    default:
      return [e.message ?? e.keyword, shown(value)];
  }
}

/** A value as a report shows it: JSON, cut at 80 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The keys of a JSON pointer (`/data/0/status`). */
export function pointer(path: string): string[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function valueAt(value: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}

/** The report's path of some keys into `value`: an array's index in brackets. */
export function dotted(value: unknown, segments: string[]): string {
  let path = '';
  let at = value;
  for (const key of segments) {
    path = Array.isArray(at) ? `${path}[${key}]` : join(path, key);
    at = (at as Record<string, unknown> | undefined)?.[key];
  }
  return path;
}
