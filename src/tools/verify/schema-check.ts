/**
 * An answer's body against a schema of the served document, checked by ajv (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1), whichever version of the document it is. What this file adds is the
 * report's terms: each ajv error becomes the field at fault as a dotted path (`data[0].status`),
 * what the contract wants there, what the value is, and whether the contract marks it `x-inferred`.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { closeSchema, resolveIn, type Schema } from './schema-close.js';
import { below, describe, dotted, pointer, valueAt } from './schema-terms.js';

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

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The key under which a document's schemas are added to its ajv; `$ref`s are rewritten to it. */
const CONTRACT = 'contract';

/** The issues of a value against a schema; none when it conforms. */
export type SchemaCheck = (value: unknown, schema: Schema) => SchemaIssue[];

/**
 * The check of values against the schemas of one document, whose `$ref`s point into `components`.
 * A field that an object schema naming its fields does not name is an issue too ("not in the
 * contract"): the service sends something the emulator does not.
 * @example schemaCheck(document.components.schemas)(body, { $ref: '#/components/schemas/Twin' })
 */
export function schemaCheck(components: Components): SchemaCheck {
  // Every error, not the first; an anyOf's branches with its error (`verbose`); the document's
  // own keywords (`example`, `x-*`) and formats other than date-time are annotations here.
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: false,
    logger: false,
    formats: { 'date-time': RFC3339 },
  });
  const closed = Object.fromEntries(
    Object.entries(components).map(([name, s]) => [name, closeSchema(s, components, CONTRACT)]),
  );
  ajv.addSchema({ components: { schemas: closed } }, CONTRACT);
  // Compiled once per text: a document repeats the same `$ref` at each of its answers.
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: Schema) => {
    const closedSchema = closeSchema(schema, components, CONTRACT);
    const text = JSON.stringify(closedSchema);
    const validate = compiled.get(text) ?? ajv.compile(closedSchema);
    compiled.set(text, validate);
    return validate;
  };
  const check: SchemaCheck = (value, schema) => {
    const validate = validatorOf(schema);
    if (validate(value)) return [];
    const doc = { check, components, root: schema, body: value };
    return issuesOf(validate.errors ?? [], doc);
  };
  return check;
}

/** What an answer's issues are read from: the check, the document's schemas, the body's schema. */
interface Checked {
  check: SchemaCheck;
  components: Components;
  root: Schema;
  body: unknown;
}

function issuesOf(errors: ErrorObject[], doc: Checked): SchemaIssue[] {
  // A failed anyOf (or oneOf) stands for every error at or under its field: its branches'. ajv
  // reports it after them, so the outermost of nested ones comes last.
  const choices: ErrorObject[] = [];
  for (const e of [...errors].reverse())
    if ((e.keyword === 'anyOf' || e.keyword === 'oneOf') && !choices.some((c) => under(e, c)))
      choices.push(e);
  const issues = errors.flatMap((e) => {
    if (choices.includes(e)) return closestBranch(e, doc);
    return choices.some((c) => under(e, c)) ? [] : [issueOf(e, doc)];
  });
  const seen = new Set<string>();
  // One issue per field, the first: a wrong type says it all.
  return issues.filter((i) => !seen.has(i.path) && seen.add(i.path));
}

/** Whether error `e` is about the field of `choice` or one inside it. */
function under(e: ErrorObject, choice: ErrorObject): boolean {
  const at = choice.instancePath;
  return e.instancePath === at || e.instancePath.startsWith(`${at}/`);
}

/** The issues of the branch of a failed anyOf that the value comes closest to (none if one fits). */
function closestBranch(choice: ErrorObject, doc: Checked): SchemaIssue[] {
  const segments = pointer(choice.instancePath);
  const here = valueAt(doc.body, segments);
  const tries = (choice.schema as Schema[]).map((branch) => doc.check(here, branch));
  if (tries.some((t) => t.length === 0)) return [];
  const best = tries.reduce((a, b) => (b.length < a.length ? b : a));
  const prefix = dotted(doc.body, segments);
  const inferred = inferredAt(doc.root, segments, doc.components);
  return best.map((i) => ({
    ...i,
    path: below(prefix, i.path),
    inferred: i.inferred || inferred,
  }));
}

/** ajv's error in the report's terms. */
function issueOf(e: ErrorObject, doc: Checked): SchemaIssue {
  const p = e.params as Record<string, unknown>;
  const field = (p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty) as
    | string
    | undefined;
  const segments = [...pointer(e.instancePath), ...(field === undefined ? [] : [field])];
  const [expected, actual] = describe(e, valueAt(doc.body, segments));
  return {
    path: dotted(doc.body, segments),
    expected,
    actual,
    inferred: inferredAt(doc.root, segments, doc.components),
  };
}

/** Whether the schema of the field at `segments`, or of any field around it, is `x-inferred`. */
function inferredAt(schema: Schema, segments: string[], components: Components): boolean {
  const s = resolveIn(schema, components);
  if (s['x-inferred'] === true) return true;
  if (((s.allOf ?? []) as Schema[]).some((part) => inferredAt(part, segments, components)))
    return true;
  const [key, ...rest] = segments;
  if (key === undefined) return false;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  const items = /^\d+$/.test(key) ? (s.items as Schema | undefined) : undefined;
  const child = properties[key] ?? items ?? (extra as Schema | undefined);
  return child ? inferredAt(child, rest, components) : false;
}
