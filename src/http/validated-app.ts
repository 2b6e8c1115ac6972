import type { HttpBindings } from '@hono/node-server';
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Env, Handler, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodType } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import { parseInput } from './parse-input.js';
import { queryValue } from './query-value.js';

type Target = 'query' | 'param' | 'header' | 'json';
/** A failure's answer, or undefined: valid. */
type Checked = Response | undefined;
type Step = (c: Context) => Checked | Promise<Checked>;
/** A route's validation, all its steps: a promise only when a body has to be read first. */
export type Validate = (c: Context) => Checked | Promise<Checked>;
/** How a route answers input zod rejects: from the failure's issues, in zod's order. */
export type OnInvalid = (issues: readonly $ZodIssue[], target: Target, c: Context) => Response;
/**
 * What serves a route around its validation (undefined: nothing to validate) and its handler, as
 * one Hono handler (the product app's pipeline).
 */
export type RouteWrap = (
  route: RouteConfig,
  validate: Validate | undefined,
  handler: Handler,
) => Handler;

/**
 * An OpenAPIHono app whose `openapi(route, handler)` validates the way `@hono/zod-openapi` does,
 * in one synchronous step before the handler instead of one async `zValidator` layer per part
 * of the request: the same parts in the same order (query, path, headers, the media type, the
 * JSON body), the same values handed to zod, the same `c.req.valid()` data. Only reading a body
 * is awaited. Each layer cost a dispatch and promises on every call, and `safeParseAsync` more
 * than `safeParse`: a third of a 404 or 400 answer's own work (issue 12, by CPU profile). Where
 * zod-openapi calls a hook with zod's result, this calls `onInvalid` with a failure's issues
 * (`parse-input.ts`: zod's `ZodError` is not built) and answers what it returns; per-route hooks
 * are not supported. The route is registered in the OpenAPI registry exactly as `openapi()` does
 * it, so the served documents are unchanged. `wrap`, when given, serves each route around its
 * validation and handler, as one Hono handler.
 * @example const app = validatedApp<AppEnv>(invalidAnswer); app.openapi(route, handler)
 */
export function validatedApp<E extends Env>(
  onInvalid: OnInvalid,
  wrap?: RouteWrap,
): OpenAPIHono<E> {
  const app = new OpenAPIHono<E>();
  const openapi = (
    { middleware, hide, ...route }: RouteConfig,
    handler: Handler,
    hook?: unknown,
  ) => {
    if (hook !== undefined) throw new Error(`${route.path}: per-route hooks are not supported`);
    if (!hide) app.openAPIRegistry.registerPath(route);
    const before = middleware ? ([] as MiddlewareHandler[]).concat(middleware) : [];
    if (wrap && before.length > 0)
      throw new Error(`${route.path}: route middleware is not supported`);
    const path = route.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    const validate = validator(stepsOf(route, onInvalid));
    const served = wrap ? wrap(route, validate, handler) : validating(validate, handler);
    app.on([route.method], [path], ...before, served);
    return app;
  };
  app.openapi = openapi as unknown as typeof app.openapi;
  return app;
}

/** The steps in order, synchronous while no step waits; undefined when there are none. */
function validator(steps: Step[]): Validate | undefined {
  if (steps.length === 0) return undefined;
  const from = async (c: Context, i: number, wait: Promise<Checked>): Promise<Checked> => {
    const failed = await wait;
    if (failed) return failed;
    for (let j = i; j < steps.length; j++) {
      const answered = await steps[j]!(c);
      if (answered) return answered;
    }
    return undefined;
  };
  return (c) => {
    for (let i = 0; i < steps.length; i++) {
      const checked = steps[i]!(c);
      if (checked instanceof Promise) return from(c, i + 1, checked);
      if (checked) return checked;
    }
    return undefined;
  };
}

/**
 * The handler behind its validation, in one layer. A failed step's answer (`onInvalid`'s) is
 * the route's.
 */
function validating(validate: Validate | undefined, handler: Handler): Handler {
  if (!validate) return handler;
  return (c, next) => {
    const checked = validate(c);
    if (checked instanceof Promise) return checked.then((failed) => failed ?? handler(c, next));
    return checked ?? handler(c, next);
  };
}

/** `@hono/zod-openapi`'s validators for `route`, in its order, as steps. */
function stepsOf(route: RouteConfig, onInvalid: OnInvalid): Step[] {
  const request = route.request;
  const steps: Step[] = [];
  const check = (target: Target, schema: ZodType, value: unknown, c: Context): Checked => {
    const parsed = parseInput(schema, value);
    if (!parsed.success) return onInvalid(parsed.issues, target, c);
    c.req.addValidatedData(target, parsed.data as object);
    return undefined;
  };
  if (request?.query) {
    const schema = request.query as ZodType;
    steps.push((c) => check('query', schema, queryValue(c), c));
  }
  if (request?.params) {
    const schema = request.params as ZodType;
    steps.push((c) => check('param', schema, c.req.param(), c));
  }
  if (request?.headers) {
    const schema = request.headers as ZodType;
    // zod-validator matches header names to the schema's keys without regard to case.
    const object = schema as unknown as { shape: object; in?: { shape: object } };
    const shape = object.in ? object.in.shape : object.shape;
    const names = new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]));
    steps.push((c) => {
      const value: Record<string, string> = {};
      for (const [name, v] of Object.entries(c.req.header())) value[names.get(name) ?? name] = v;
      return check('header', schema, value, c);
    });
  }
  if (request?.cookies) throw new Error(`${route.path}: cookie parameters are not supported`);
  const content = request?.body?.content;
  if (!content) return steps;
  const declared = Object.entries(content).map(([type, media]) => [type, schemaOf(media)] as const);
  for (const [type, schema] of declared) {
    if (!isJsonType(type) || !isZod(schema)) {
      throw new Error(`${route.path}: only JSON bodies with a zod schema are supported`);
    }
  }
  steps.push(mediaTypeGate);
  const schema = declared[0]![1] as ZodType;
  const json = (c: Context) => readJson(c).then((value) => check('json', schema, value, c));
  if (request.body?.required) steps.push(json);
  else {
    steps.push((c) => {
      const type = c.req.header('content-type');
      if (type && isJsonType(type)) return json(c);
      c.req.addValidatedData('json', {});
      return undefined;
    });
  }
  return steps;
}

function schemaOf(media: unknown): unknown {
  return (media as { schema?: unknown } | undefined)?.schema;
}

/** `@hono/zod-openapi`'s test for a zod schema. */
function isZod(schema: unknown): schema is ZodType {
  const s = schema as Partial<
    Record<'parse' | 'safeParse' | 'parseAsync' | 'safeParseAsync', unknown>
  >;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.parse === 'function' &&
    typeof s.safeParse === 'function' &&
    typeof s.parseAsync === 'function' &&
    typeof s.safeParseAsync === 'function'
  );
}

/** `@hono/zod-openapi`: a declared JSON media type. */
function isJsonType(contentType: string): boolean {
  return /^application\/([a-z-.]+\+)?json/i.test(contentType);
}

const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const JSON_BODY = /^application\/([\w.-]+\+)?json$/i;

/**
 * `@hono/zod-openapi`'s media type gate: 415 for a content type the route does not declare, or
 * for a body sent without one. Served by Node, the framing headers say whether there is a body
 * without building the WHATWG Request to read it.
 */
function mediaTypeGate(c: Context): undefined | Promise<undefined> {
  const type = c.req.header('content-type');
  if (type) {
    // Every declared type is JSON (checked when the route is registered).
    if (!JSON_REQUEST.test(type)) {
      throw new HTTPException(415, { message: 'Unsupported Media Type' });
    }
    return undefined;
  }
  const framed = framedBody(c);
  if (framed === false) return undefined;
  if (framed) throw new HTTPException(415, { message: 'Unsupported Media Type' });
  return hasRequestBody(c).then((has) => {
    if (has) throw new HTTPException(415, { message: 'Unsupported Media Type' });
    return undefined;
  });
}

/** Whether a Node request has a body by its framing; undefined when only reading it can tell. */
function framedBody(c: Context): boolean | undefined {
  if ((c.env as Partial<HttpBindings> | undefined)?.incoming === undefined) return undefined;
  if (c.req.header('transfer-encoding') !== undefined) return undefined;
  const length = c.req.header('content-length');
  return length !== undefined && Number.parseInt(length, 10) > 0;
}

/** `@hono/zod-openapi`'s test for a body: any byte in it (GET and HEAD carry none). */
async function hasRequestBody(c: Context): Promise<boolean> {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const body = raw.clone().body;
  if (body === null) return false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Hono's JSON validator input: the parsed body when the media type is JSON, else `{}`. */
async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('Content-Type');
  const mediaType = type ? type.split(';')[0]!.trim().toLowerCase() : '';
  if (!JSON_BODY.test(mediaType)) return {};
  try {
    return await c.req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}
