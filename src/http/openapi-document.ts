import type { OpenAPIHono } from '@hono/zod-openapi';
import { OTHER_AREAS } from '../areas/status/contract.js';
import { DEFAULT_VERSION, SUPPORTED_VERSIONS } from '../core/contract.js';
import type { AppEnv } from '../core/env.js';
import type { Kinds } from '../engine/kind-registry.js';
import { withDeclaredAnswers } from './declared-answers.js';

type Doc = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/** Both served documents' contact and license. */
export const CONTACT = { name: 'svc-emulator maintainers' };
export const LICENSE = { name: 'MIT', identifier: 'MIT' };

/** The first line of the description of every operation the API document does not specify. */
const INFERRED_LINE = 'Inferred: the API document does not specify this operation; see x-inferred.';

/** The names of the component schemas a value refers to, transitively. */
function referencedSchemas(
  value: unknown,
  schemas: Record<string, unknown>,
  seen = new Set<string>(),
) {
  if (Array.isArray(value)) for (const v of value) referencedSchemas(v, schemas, seen);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const name =
        k === '$ref' && typeof v === 'string'
          ? /^#\/components\/schemas\/(.+)$/.exec(v)?.[1]
          : undefined;
      if (name && !seen.has(name)) {
        seen.add(name);
        referencedSchemas(schemas[name], schemas, seen);
      } else referencedSchemas(v, schemas, seen);
    }
  }
  return seen;
}

/** Only product paths and the schemas they reach: mounting the control app merges its routes in. */
function withoutControl(doc: Doc): Doc {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).filter(([path]) => !path.startsWith('/_control')),
  );
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const used = referencedSchemas(paths, schemas);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...doc, paths, components: { ...doc.components, schemas: kept } } as Doc;
}

/** Every POST honours `Idempotency-Key` (DESIGN.md section 3); the document says so. */
function withIdempotencyKey(doc: Doc): void {
  for (const item of Object.values(doc.paths ?? {})) {
    const post = (item as { post?: { parameters?: unknown[] } }).post;
    if (!post) continue;
    post.parameters = [
      ...(post.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key with the same request within 24 hours replays the first successful response (header `Idempotent-Replayed: true`); with a different request: 409 `idempotency_key_reused`.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        'x-inferred': true,
      },
    ];
  }
}

type Operation = { parameters?: { name: string; schema?: { enum?: unknown } }[] } & Record<
  string,
  unknown
>;

/** Under `--strict-versions` the `Service-Version` enum is the operation's `x-service-versions`. */
function withAcceptedVersions(doc: Doc, strictVersions: boolean): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      const header = op.parameters?.find((p) => p.name === 'Service-Version');
      if (!header?.schema) continue;
      const listed = op['x-service-versions'] as string[] | undefined;
      header.schema = {
        ...header.schema,
        enum: strictVersions && listed ? [...listed] : [...SUPPORTED_VERSIONS],
      };
    }
  }
}

/**
 * Code generators drop `x-inferred`; a description that starts with `INFERRED_LINE` survives
 * into generated SDK docs. Operations without a description of their own get their summary.
 */
function withInferredFirstLine(doc: Doc): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Record<string, unknown>>)) {
      if (!op?.['x-inferred']) continue;
      const own = (op.description as string | undefined) ?? `${op.summary ?? ''}.`;
      op.description = own.startsWith(INFERRED_LINE) ? own : `${INFERRED_LINE}\n\n${own}`;
    }
  }
}

/**
 * What Swagger UI's Authorize box says: the keys the shipped scenarios open (scenarios/default.json;
 * a test keeps it true), and where the keys of another world are shown.
 */
export const AUTHORIZE_HINT =
  'An API key starting with `svc_`, sent as `Authorization: Bearer <key>`. With the shipped `default` scenario (the default), paste `svc_test_emulator_default` (account Default, every scope and the `twins` feature) or `svc_test_emulator_no_twins` (account No Twins, without `twins`). The start-up banner lists the keys of the scenario it loaded; `POST /_control/accounts` makes an account and a key of your own.';

/**
 * The areas the API document specifies operations of, in the order of its title ("Evaluations,
 * Scenarios, Run Files, Webhook Endpoints, API Keys"; run files are the evaluations' and the
 * twins'): Swagger UI lists them first, then the other areas in section 1's order.
 */
export const DOCUMENTED_AREAS = ['Evaluations', 'Scenarios', 'Twins', 'Webhooks', 'API keys'];

/** Within an area: create and list, get (and delete), then these sub-resources, then the rest. */
const SUB_RESOURCES = ['cancel', 'resume', 'logs', 'files', 'archive'];
const METHODS = ['post', 'get', 'put', 'patch', 'delete'];

/** Where a path comes within its area (lower first); ties keep the order of registration. */
function pathRank(path: string): number {
  if (/^\/v1\/[^/]+$/.test(path)) return 0;
  if (/^\/v1\/[^/]+\/\{[^}]+\}$/.test(path)) return 1;
  const sub = SUB_RESOURCES.indexOf(path.slice(path.lastIndexOf('/') + 1));
  return sub === -1 ? 2 + SUB_RESOURCES.length : 2 + sub;
}

/**
 * The document's tags, and its paths grouped by tag in that order, each area's create, list and
 * get first (Swagger UI shows operations in the document's order). A collection's paths stay
 * together; one with no list of its own (`/v1/sim_runs/...`) goes with its area's first.
 */
function inReadingOrder(doc: Doc, tags: { name: string }[]): void {
  const documented = DOCUMENTED_AREAS.flatMap((name) => tags.filter((t) => t.name === name));
  doc.tags = [...documented, ...tags.filter((t) => !DOCUMENTED_AREAS.includes(t.name))];
  const tagRank = new Map(doc.tags.map((t, i) => [t.name, i]));
  const entries = Object.entries(doc.paths ?? {}).map(([path, item], i) => {
    const ops = item as Record<string, { tags?: string[] }>;
    const methods = [
      ...METHODS.filter((m) => ops[m]),
      ...Object.keys(ops).filter((k) => !METHODS.includes(k)),
    ];
    const tag = METHODS.map((m) => ops[m]?.tags?.[0]).find(Boolean) ?? '';
    const ordered = Object.fromEntries(methods.map((m) => [m, ops[m]]));
    return { path, item: ordered, tag, collection: path.split('/')[2] ?? '', i };
  });
  const lists = new Set(entries.filter((e) => pathRank(e.path) === 0).map((e) => e.collection));
  const firstOfTag = new Map<string, number>();
  const firstOfCollection = new Map<string, number>();
  for (const e of entries) {
    if (!firstOfTag.has(e.tag)) firstOfTag.set(e.tag, e.i);
    if (!firstOfCollection.has(e.collection)) firstOfCollection.set(e.collection, e.i);
  }
  const group = (e: (typeof entries)[number]) =>
    (lists.has(e.collection) ? firstOfCollection.get(e.collection) : firstOfTag.get(e.tag)) ?? e.i;
  entries.sort(
    (a, b) =>
      (tagRank.get(a.tag) ?? tagRank.size) - (tagRank.get(b.tag) ?? tagRank.size) ||
      group(a) - group(b) ||
      pathRank(a.path) - pathRank(b.path) ||
      a.i - b.i,
  );
  doc.paths = Object.fromEntries(entries.map((e) => [e.path, e.item])) as Doc['paths'];
}

/** The product document from the routes; `x-inferred` where the API document is silent. */
export function productDocument(app: OpenAPIHono<AppEnv>, kinds: Kinds, strictVersions = false) {
  // The areas of API document section 1, each a tag, in its order: the run kinds' first.
  const tags = [
    ...kinds.list.map(({ kind }) => ({ name: kind.tag, description: kind.tagDescription })),
    ...OTHER_AREAS,
  ];
  const generated = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Robot Policy Platform API (svc-emulator)',
      version: DEFAULT_VERSION,
      description:
        'The API as served by svc-emulator. Operations and fields marked `x-inferred: true` are not shown by the API document; the emulator infers them (its docs/inferred.md lists each choice), and the description of every inferred operation starts with "Inferred:".',
      contact: CONTACT,
      license: LICENSE,
    },
    tags,
    servers: [{ url: '/', description: 'This emulator' }],
  });
  const product = withoutControl(generated);
  product.components = {
    ...product.components,
    securitySchemes: {
      ApiKeyAuth: {
        type: 'http',
        scheme: 'bearer',
        description: AUTHORIZE_HINT,
      },
    },
  };
  withIdempotencyKey(product);
  withDeclaredAnswers(product);
  withAcceptedVersions(product, strictVersions);
  withInferredFirstLine(product);
  inReadingOrder(product, tags);
  return product;
}
