/**
 * The shortcuts that drive any registered kind through the real app. Everything a test needs of
 * a kind (its create body, paths, id parameter, not-ready code, scope, objects) comes from its
 * registration and its contract.
 */
import { expect } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator.js';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { expectOk } from '../api/support.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, servedDocument, testEmulator } from '../helpers.js';

/**
 * Each kind's create body: the example its contract gives its create request (the served
 * document's `components.schemas.<CreateRequest>.example`), so a new kind brings its own.
 */
export const CREATE_BODIES: Record<string, Record<string, unknown>> = await (async () => {
  const doc = (await servedDocument()) as {
    paths: Record<
      string,
      { post?: { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } } }
    >;
    components: { schemas: Record<string, { example?: Record<string, unknown> }> };
  };
  const bodies: Record<string, Record<string, unknown>> = {};
  for (const { kind } of REGISTERED_KINDS) {
    const ref =
      doc.paths[`/v1/${kind.collection}`]?.post?.requestBody?.content['application/json']?.schema
        .$ref;
    const example = ref && doc.components.schemas[ref.split('/').at(-1)!]?.example;
    // The shared fields are the tests' to set: the kind's own ones are what the example gives.
    if (example) {
      const { label: _label, webhook_metadata: _metadata, ...own } = example;
      bodies[kind.name] = own;
    }
  }
  return bodies;
})();

export type Registered = (typeof REGISTERED_KINDS)[number];

/** Every registered kind as `[name, registration]`, for `describe.each`. */
export const KINDS = REGISTERED_KINDS.map((r) => [r.kind.name, r] as const);

/** A kind's create body, or a failure that says where to add it. */
export function createBodyOf(name: string): Record<string, unknown> {
  const body = CREATE_BODIES[name];
  if (!body) {
    throw new Error(
      `the registered kind '${name}' has no create body: give its create request schema an OpenAPI example`,
    );
  }
  return body;
}

/** Virtual seconds after which a run of any kind's minimal body has ended. */
export const END = 3600;

/** The ULID part of an id: 26 Crockford base32 characters (DESIGN.md section 3). */
export const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

export const HEX64 = /^[0-9a-f]{64}$/;

/** The origin `app.request()` answers at, as used in `links` and download URLs. */
export const BASE = 'http://localhost';

export const T0 = '2026-01-01T00:00:00.000Z';

type RouteName = 'create' | 'get' | 'list' | 'cancel' | 'resume' | 'archive' | 'files' | 'logs';

/** The path of one of a kind's routes, its id parameter filled with `id`. */
export function pathOf({ kind, routes }: Registered, name: RouteName, id = ''): string {
  const route = routes[name];
  if (!route) throw new Error(`the kind '${kind.name}' registers no ${name} route`);
  return route.path.replace(`{${routes.idParam}}`, id);
}

/** `body` with an outcome plan (`options.emulator.outcomes`), its other options kept. */
export function withOutcomes(body: Record<string, unknown>, outcomes: unknown[]) {
  const options = (body.options ?? {}) as Record<string, unknown>;
  return { ...body, options: { ...options, emulator: { outcomes } } };
}

/**
 * A fresh emulator serving this kind only (seed 0 unless `options` say otherwise, manual clocks),
 * with shortcuts for the kind on the default account; `options.kinds` serves others beside it.
 */
export function kindWorld(registered: Registered, options: EmulatorOptions = {}) {
  const emu = testEmulator({ kinds: [registered], ...options });
  const body = createBodyOf(registered.kind.name);
  const path = (name: RouteName, id?: string) => pathOf(registered, name, id);
  const advance = (seconds: number) =>
    emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds });
  const get = async (id: string) => {
    const res = await emu.api('GET', path('get', id));
    expectOk(res, 200);
    return res.json;
  };
  return {
    emu,
    kind: registered.kind,
    routes: registered.routes,
    body,
    path,
    advance,
    get,
    /** `POST` the kind's create route; throws unless 201. */
    async create(given: Record<string, unknown> = body) {
      const res = await emu.api('POST', path('create'), { body: given });
      expectOk(res, 201);
      return res.json;
    },
    /** Advances in quarter seconds until the run is processing. */
    async untilProcessing(id: string) {
      for (let i = 0; i < 40 && (await get(id)).status === 'queued'; i++) await advance(0.25);
      expect((await get(id)).status).toBe('processing');
    },
    /** The archive route with the default key, as raw bytes. */
    async archive(id: string) {
      const headers = { authorization: `Bearer ${DEFAULT_SECRET}` };
      const res = await emu.app.request(path('archive', id), { headers });
      return {
        status: res.status,
        headers: res.headers,
        bytes: Buffer.from(await res.arrayBuffer()),
      };
    },
    balance: async (): Promise<number> =>
      (await emu.control('GET', `/accounts/${DEFAULT_ACCOUNT}`)).token_balance,
    /** The types of the run's events, oldest first. */
    async eventTypes(id: string): Promise<string[]> {
      const res = await emu.api('GET', `/v1/events?resource=${id}&limit=100`);
      expectOk(res, 200);
      return res.json.data.map((e: { type: string }) => e.type).reverse();
    },
  };
}

export type KindWorld = ReturnType<typeof kindWorld>;
