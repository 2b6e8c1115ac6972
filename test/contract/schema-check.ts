/**
 * Checks an answer against a served document's schema: the JSON Schema keywords that
 * `/openapi.json` uses ($ref, allOf, anyOf, oneOf, type, enum, const, properties, required,
 * additionalProperties, items, prefixItems, bounds). Annotations (description, example, format,
 * default, x-*) are not checked. Strict where it matters: a missing required field, a wrong
 * type, a null where none is allowed, or an undeclared key under `additionalProperties: false`.
 */

type Schema = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Schema> };
}

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : Number.isInteger(v)
        ? 'integer'
        : typeof v === 'number'
          ? 'number'
          : typeof v;

const typeMatches = (want: string, v: unknown) =>
  want === typeOf(v) || (want === 'number' && typeOf(v) === 'integer');

/** Every way `value` breaks `schema`, each as `path: what`; empty when it conforms. */
export function schemaErrors(doc: OpenApiDocument, schema: Schema, value: unknown, at = '$') {
  const errors: string[] = [];
  const check = (s: Schema, v: unknown, path: string): void => {
    if (typeof s.$ref === 'string') {
      const name = s.$ref.replace('#/components/schemas/', '');
      const target = doc.components.schemas[name];
      if (!target) errors.push(`${path}: unknown $ref ${s.$ref}`);
      else check(target, v, path);
    }
    for (const part of (s.allOf as Schema[] | undefined) ?? []) check(part, v, path);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = s[key] as Schema[] | undefined;
      if (!options) continue;
      const passing = options.filter((o) => schemaErrors(doc, o, v, path).length === 0).length;
      if (key === 'anyOf' ? passing === 0 : passing !== 1)
        errors.push(`${path}: matches ${passing} of the ${key} schemas`);
    }
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => typeMatches(t, v))) {
        errors.push(`${path}: ${JSON.stringify(v)?.slice(0, 80)} is not ${types.join(' or ')}`);
        return;
      }
    }
    if (s.enum && !(s.enum as unknown[]).includes(v))
      errors.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`);
    if ('const' in s && s.const !== v) errors.push(`${path}: ${JSON.stringify(v)} is not const`);
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) errors.push(`${path}: below minimum`);
      if (typeof s.maximum === 'number' && v > s.maximum) errors.push(`${path}: above maximum`);
      if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum)
        errors.push(`${path}: not above exclusiveMinimum`);
    }
    if (typeof v === 'string') {
      if (typeof s.minLength === 'number' && v.length < s.minLength)
        errors.push(`${path}: shorter than minLength`);
      if (typeof s.maxLength === 'number' && v.length > s.maxLength)
        errors.push(`${path}: longer than maxLength`);
    }
    if (Array.isArray(v)) {
      if (typeof s.minItems === 'number' && v.length < s.minItems)
        errors.push(`${path}: fewer than minItems`);
      if (typeof s.maxItems === 'number' && v.length > s.maxItems)
        errors.push(`${path}: more than maxItems`);
      const prefix = (s.prefixItems as Schema[] | undefined) ?? [];
      prefix.forEach((p, i) => {
        if (i < v.length) check(p, v[i], `${path}[${i}]`);
      });
      if (s.items && typeof s.items === 'object')
        v.slice(prefix.length).forEach((x, i) => {
          check(s.items as Schema, x, `${path}[${i + prefix.length}]`);
        });
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      for (const key of (s.required as string[] | undefined) ?? [])
        if (!(key in obj)) errors.push(`${path}.${key}: required, absent`);
      for (const [key, x] of Object.entries(obj)) {
        if (props[key]) check(props[key], x, `${path}.${key}`);
        else if (s.additionalProperties === false)
          errors.push(`${path}.${key}: not allowed (additionalProperties: false)`);
        else if (s.additionalProperties && typeof s.additionalProperties === 'object')
          check(s.additionalProperties as Schema, x, `${path}.${key}`);
      }
    }
  };
  check(schema, value, at);
  return errors;
}

/** The JSON schema of an operation's answer, by path template, method and status. */
export function responseSchema(
  doc: OpenApiDocument,
  template: string,
  method: string,
  status: number,
): Schema {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${method} ${template} in the document`);
  const response = op.responses[String(status)] as
    | { content?: Record<string, { schema: Schema }> }
    | undefined;
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${template} declares no JSON ${status}`);
  return schema;
}
