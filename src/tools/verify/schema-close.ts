/**
 * What the check adds to JSON Schema: a field the contract does not name is a difference. JSON
 * Schema lets an object carry fields its `properties` do not name unless it says otherwise, so a
 * copy of each schema says otherwise, with `unevaluatedProperties: false`, wherever an object names
 * its fields and is silent about others. The parts of an `allOf` are left open (their fields
 * together are the object's), and the `allOf` is closed instead.
 */
/** A JSON Schema of the served document, as JSON. */
export type Schema = Record<string, unknown>;

type Components = Record<string, Schema>;

/** The keywords whose value is a schema, a list of schemas (`allOf` aside), or a map of them. */
const ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems'];
const ONE_MORE = ['not', 'contains', 'if', 'then', 'else', 'propertyNames'];
const LIST = ['anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

const COMPONENT = /#\/components\/schemas\/(.+)$/;

/** A schema with a `$ref` into `components` followed (both `#/...` and `<key>#/...`). */
export function resolveIn(schema: Schema, components: Components): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = components[COMPONENT.exec(ref)?.[1] ?? ''];
  const { $ref: _, ...rest } = schema;
  return target ? resolveIn({ ...target, ...rest }, components) : schema;
}

/**
 * A closed copy of `schema`, its `#/components/schemas/...` references pointing into the schemas
 * added to ajv under `key`. `part`: the schema is a part of an `allOf`, and stays open itself.
 * @example closeSchema({type: 'object', properties: {id: {type: 'string'}}}, {}, 'contract')
 *   // {type: 'object', properties: {...}, unevaluatedProperties: false}
 */
export function closeSchema(schema: Schema, components: Components, key: string, part = false) {
  if (!schema || typeof schema !== 'object') return schema;
  // A part is inlined: the component it names stays closed where it is used on its own.
  if (part && typeof schema.$ref === 'string') {
    const target = resolveIn(schema, components);
    if (target !== schema) return closeSchema(target, components, key, true);
  }
  const close = (s: Schema, asPart = false) => closeSchema(s, components, key, asPart);
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ONE.includes(k) || ONE_MORE.includes(k)) out[k] = close(v as Schema);
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = (v as Schema[]).map((s) => close(s));
    else if (k === 'allOf' && Array.isArray(v)) out[k] = (v as Schema[]).map((s) => close(s, true));
    else if (MAP.includes(k) && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v as Components).map(([n, s]) => [n, close(s)]));
    else if (k === '$ref' && typeof v === 'string')
      out[k] = v.replace(/^#\/components\//, `${key}#/components/`);
    else out[k] = v;
  }
  const namesFields = schema.properties !== undefined || schema.allOf !== undefined;
  const silent =
    schema.additionalProperties === undefined && schema.unevaluatedProperties === undefined;
  if (!part && namesFields && silent) out.unevaluatedProperties = false;
  return out;
}
