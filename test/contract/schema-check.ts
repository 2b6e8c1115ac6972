/**
 * Checks an answer against a served document's schema with ajv (JSON Schema 2020-12, the dialect
 * of OpenAPI 3.1): every keyword the document uses, `$ref`s into its components included.
 * Annotations (description, example, format, default, x-*) are not checked, and an object names
 * its undeclared keys only under `additionalProperties: false`, as JSON Schema says. (verify's own
 * check, src/tools/verify/schema-check.ts, also flags fields the contract does not name.)
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Schema = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * One ajv per document, its components added under `doc` (a `$ref` is rewritten to point there),
 * with each schema compiled once: ajv knows a schema again only as the same object, and a
 * compile takes milliseconds.
 */
const ajvs = new WeakMap<
  OpenApiDocument,
  { ajv: Ajv2020; compiled: Map<string, ValidateFunction> }
>();

function validatorOf(doc: OpenApiDocument, schema: Schema): ValidateFunction {
  let entry = ajvs.get(doc);
  if (!entry) {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      validateFormats: false,
      logger: false,
    });
    ajv.addSchema(JSON.parse(toDoc({ components: doc.components })), 'doc');
    entry = { ajv, compiled: new Map() };
    ajvs.set(doc, entry);
  }
  const text = toDoc(schema);
  let validate = entry.compiled.get(text);
  if (!validate) {
    validate = entry.ajv.compile(JSON.parse(text));
    entry.compiled.set(text, validate);
  }
  return validate;
}

/** A schema's text with its `#/components/...` references pointing into the schema `doc`. */
const toDoc = (schema: unknown) =>
  JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"doc#/components/');

/** Every way `value` breaks `schema`, each as `path: what` (`$.tokens: must be object`). */
export function schemaErrors(doc: OpenApiDocument, schema: Schema, value: unknown): string[] {
  const validate = validatorOf(doc, schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const path = e.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replaceAll('/', '.');
    return `$${path}: ${e.message}`;
  });
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
