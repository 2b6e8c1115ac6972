/**
 * The error cases that change nothing (API document sections 5, 7, 9): a bad key, unknown ids,
 * bad parameters, a narrow key, Service-Version values. A call that could create something
 * (a create with a body) is sent only with a key that cannot act, unless `--writes` allows it.
 */
import { SUPPORTED_VERSIONS } from '../../core/contract.js';
import type { ContractOperation, ContractParameter } from './contract.js';
import { orFeatureGate } from './judge.js';
import { ok, readItem } from './read-pass.js';
import { collectionOf, fillPath, itemFor, pathParams, unknownId } from './resources.js';
import type { Session } from './session.js';

/** The path of `op` filled with an id no resource has. */
function unknownPath(session: Session, op: ContractOperation, query = ''): string {
  return fillPath(op, unknownId(session.contract, collectionOf(op)), query);
}

/** A create: a POST whose path has no parameter. */
function isCreate(op: ContractOperation): boolean {
  return op.method === 'POST' && pathParams(op).length === 0;
}

/** The body a probe sends: an empty object to a create, nothing elsewhere. */
function probeBody(op: ContractOperation): unknown {
  return isCreate(op) ? {} : undefined;
}

/** 401 `unauthenticated` with a well-formed unknown key, on every operation that needs a key. */
export async function probeBadKey(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (!op.needsKey) continue;
    const spec = { path: unknownPath(session, op), key: 'bad' as const, body: probeBody(op) };
    await session.call(op, 'bad key', spec, { status: [401], codes: ['unauthenticated'] });
  }
}

/**
 * 404 `resource_not_found` for an id of zeros, on every operation with an id in its path (or 403
 * `feature_not_enabled` first, for a key whose account lacks the operation's feature).
 */
export async function probeUnknownIds(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (pathParams(op).length === 0) continue;
    const expect = orFeatureGate(op, { status: [404], codes: ['resource_not_found'] });
    await session.call(op, 'unknown id', { path: unknownPath(session, op) }, expect);
  }
}

/** A value the query parameter's schema refuses, or undefined when it has no bound. */
export function refusedValue(p: ContractParameter): string | undefined {
  const s = p.schema ?? {};
  if (Array.isArray(s.enum)) return 'verify_not_a_value';
  if (typeof s.maximum === 'number') return String(s.maximum + 1);
  if (typeof s.minimum === 'number') return String(s.minimum - 1);
  return undefined;
}

/**
 * 400 `parameter_invalid` naming the parameter, for the first bounded query parameter of a GET
 * (or 403 `feature_not_enabled`: the feature is checked before the query, DESIGN.md section 3).
 */
export async function probeBadParameters(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (op.method !== 'GET') continue;
    const param = op.parameters.find((p) => p.in === 'query' && refusedValue(p) !== undefined);
    if (!param) continue;
    const query = `?${param.name}=${encodeURIComponent(refusedValue(param)!)}`;
    const item = pathParams(op).length > 0 ? itemFor(session, op) : null;
    const path = item ? fillPath(op, String(item.id), query) : unknownPath(session, op, query);
    const refused = { status: [400], codes: ['parameter_invalid'], param: param.name };
    await session.call(op, 'bad parameter', { path }, orFeatureGate(op, refused));
  }
}

/** Whether `scopes` grant `needed`: `write` implies `read` (API document section 5). */
export function grants(scopes: string[], needed: string): boolean {
  return scopes.includes(needed) || scopes.includes(needed.replace(/:read$/, ':write'));
}

/** 403 `missing_scope` with the narrow key, on every operation needing a scope it lacks. */
export async function probeNarrowKey(session: Session): Promise<void> {
  const me = session.contract.operations.find(
    (o) => o.method === 'GET' && o.path === '/v1/keys/me',
  );
  if (!session.options.narrowKey || !me) return;
  const answer = await session.call(me, 'narrow key', { path: me.path, key: 'narrow' }, ok(me));
  const scopes = (answer?.json as { scopes?: unknown } | undefined)?.scopes;
  if (!Array.isArray(scopes)) return;
  for (const op of session.contract.operations) {
    if (!op.scope || grants(scopes.map(String), op.scope)) continue;
    if (isCreate(op) && !session.options.writes) {
      session.notRun(op, 'narrow key', 'a create: sent only with --writes');
      continue;
    }
    const spec = { path: unknownPath(session, op), key: 'narrow' as const, body: probeBody(op) };
    // Scope and feature are one step of the order of checks: either 403 agrees.
    const codes = ['missing_scope', 'feature_not_enabled'];
    await session.call(op, 'narrow key', spec, { status: [403], codes });
  }
}

/**
 * Service-Version on the documented GETs: the latest version serves (the emulator accepts both
 * everywhere, DESIGN.md section 3) and an unknown one answers 400 `unsupported_version`.
 */
export async function probeVersions(session: Session): Promise<void> {
  const latest = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]!;
  for (const op of session.contract.operations) {
    if (op.method !== 'GET' || op.inferred) continue;
    const item = pathParams(op).length > 0 ? itemFor(session, op) : null;
    if (item) await readItem(session, op, item, 'latest version', latest);
    else if (pathParams(op).length > 0) session.notRun(op, 'latest version', 'nothing to read');
    else {
      const headers = { 'service-version': latest };
      await session.call(
        op,
        'latest version',
        { path: op.path, headers },
        { ...ok(op), version: latest },
      );
    }
    const path = item ? fillPath(op, String(item.id)) : unknownPath(session, op);
    const headers = { 'service-version': '1999-01-01' };
    const expect = { status: [400], codes: ['unsupported_version'], param: 'Service-Version' };
    await session.call(op, 'unknown version', { path, headers }, expect);
  }
}
