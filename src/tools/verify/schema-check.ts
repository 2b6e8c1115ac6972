/**
 * A small JSON Schema check (the subset of OpenAPI 3.1 the served document uses): types, enums,
 * required and extra fields, bounds, items, `$ref`, `allOf`, `anyOf`, `oneOf`. Its answer names
 * the field at fault, which a general validator's error objects would have to be translated into.
 */
import type { Schema } from './contract.js';

export interface SchemaIssue {
  /** Dotted, with indexes: `data[0].status`; `` for the whole body. */
  path: string;
  /** What the contract wants there, e.g. `string`, `one of "queued", "failed"`, `present`. */
  expected: string;
  /** What the value is, e.g. `number`, `"done"`, `missing`. */
  actual: string;
  /** The schema of the field says `x-inferred`: the API document does not specify it. */
  inferred: boolean;
}

type Components = Record<string, Schema>;

/** Where a check is: the document's schemas, and whether fields the schema does not name count. */
interface Ctx {
  components: Components;
  /** Report fields an object schema with `properties` does not name (no `additionalProperties`). */
  extras: boolean;
}

/** The JSON type name of a value, `integer` for whole numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function resolve(schema: Schema, components: Components): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const target = name ? components[name] : undefined;
  return target ? resolve({ ...target, ...withoutRef(schema) }, components) : {};
}

function withoutRef(schema: Schema): Schema {
  const { $ref: _, ...rest } = schema;
  return rest;
}

function typeMatches(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(value);
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

/**
 * The issues of `value` against `schema`; none when it conforms. A field the schema does not name
 * is an issue too ("not in the contract"): the service sends something the emulator does not.
 */
export function checkSchema(value: unknown, schema: Schema, components: Components): SchemaIssue[] {
  return check(value, schema, { components, extras: true }, '', false);
}

function check(
  value: unknown,
  schema: Schema,
  ctx: Ctx,
  path: string,
  inferred: boolean,
): SchemaIssue[] {
  const { components } = ctx;
  const s = resolve(schema, components);
  const here = inferred || s['x-inferred'] === true;
  const issue = (expected: string, actual?: string): SchemaIssue[] => [
    { path, expected, actual: actual ?? shown(value), inferred: here },
  ];
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as Schema[]).map((part) => resolve(part, components));
    const inner = { ...ctx, extras: false };
    const issues = parts.flatMap((part) => check(value, part, inner, path, here));
    if (!ctx.extras || !value || typeof value !== 'object' || Array.isArray(value)) return issues;
    const named = new Set(parts.flatMap((p) => Object.keys((p.properties ?? {}) as Schema)));
    return [...issues, ...extraFields(value as Record<string, unknown>, named, path, here)];
  }
  const choices = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(choices)) {
    const tries = choices.map((c) => check(value, c, ctx, path, here));
    if (tries.some((t) => t.length === 0)) return [];
    return tries.reduce((a, b) => (b.length < a.length ? b : a));
  }
  if (s.type !== undefined && !typeMatches(value, s.type))
    return issue([s.type].flat().join(' or '), jsonType(value));
  if (Array.isArray(s.enum) && !s.enum.some((e) => e === value))
    return issue(`one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if ('const' in s && s.const !== value) return issue(JSON.stringify(s.const));
  if (typeof value === 'string') return checkString(value, s, issue);
  if (typeof value === 'number') return checkNumber(value, s, issue);
  if (Array.isArray(value)) return checkArray(value, s, ctx, path, here, issue);
  if (value && typeof value === 'object')
    return checkObject(value as Record<string, unknown>, s, ctx, path, here);
  return [];
}

function extraFields(
  value: Record<string, unknown>,
  named: Set<string>,
  path: string,
  inferred: boolean,
): SchemaIssue[] {
  return Object.keys(value)
    .filter((k) => !named.has(k))
    .map((k) => ({
      path: join(path, k),
      expected: 'absent: the contract does not name it',
      actual: shown(value[k]),
      inferred,
    }));
}

type Issue = (expected: string, actual?: string) => SchemaIssue[];

/** A value as a report shows it: JSON, cut at 80 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function checkString(value: string, s: Schema, issue: Issue) {
  if (typeof s.minLength === 'number' && value.length < s.minLength)
    return issue(`at least ${s.minLength} characters`, `${value.length}`);
  if (typeof s.maxLength === 'number' && value.length > s.maxLength)
    return issue(`at most ${s.maxLength} characters`, `${value.length}`);
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value))
    return issue(`matching ${s.pattern}`);
  if (s.format === 'date-time' && !RFC3339.test(value)) return issue('an RFC 3339 date-time');
  return [];
}

function checkNumber(value: number, s: Schema, issue: Issue) {
  if (typeof s.minimum === 'number' && value < s.minimum) return issue(`>= ${s.minimum}`);
  if (typeof s.maximum === 'number' && value > s.maximum) return issue(`<= ${s.maximum}`);
  if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
    return issue(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
    return issue(`< ${s.exclusiveMaximum}`);
  return [];
}

function checkArray(
  value: unknown[],
  s: Schema,
  ctx: Ctx,
  path: string,
  inferred: boolean,
  issue: Issue,
) {
  if (typeof s.minItems === 'number' && value.length < s.minItems)
    return issue(`at least ${s.minItems} items`, `${value.length}`);
  if (typeof s.maxItems === 'number' && value.length > s.maxItems)
    return issue(`at most ${s.maxItems} items`, `${value.length}`);
  const items = s.items as Schema | undefined;
  if (!items) return [];
  return value.flatMap((v, i) => check(v, items, ctx, join(path, i), inferred));
}

function checkObject(
  value: Record<string, unknown>,
  s: Schema,
  ctx: Ctx,
  path: string,
  inferred: boolean,
): SchemaIssue[] {
  const { components } = ctx;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const issues: SchemaIssue[] = [];
  for (const name of (s.required ?? []) as string[]) {
    if (!(name in value)) {
      const own = resolve(properties[name] ?? {}, components)['x-inferred'] === true;
      issues.push({
        path: join(path, name),
        expected: 'present (required)',
        actual: 'missing',
        inferred: inferred || own,
      });
    }
  }
  const extra = s.additionalProperties;
  const inner = { ...ctx, extras: true };
  for (const [name, v] of Object.entries(value)) {
    const p = properties[name];
    if (p) issues.push(...check(v, p, inner, join(path, name), inferred));
    else if (extra && typeof extra === 'object')
      issues.push(...check(v, extra as Schema, inner, join(path, name), inferred));
    else if (extra === false || (ctx.extras && extra === undefined && s.properties))
      issues.push(...extraFields({ [name]: v }, new Set(), path, inferred));
  }
  return issues;
}
