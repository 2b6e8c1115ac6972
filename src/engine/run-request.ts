/** What every kind's `prepare` reads the same way (DESIGN.md section 7, "shared rules"). */

import type { Catalog } from '../core/catalog.js';
import { invalidParam, MESSAGES } from '../core/errors.js';
import type { RunRequest } from './records.js';

/**
 * The shared request fields of a validated create body (absent ones as `{}` and null).
 * @example { dataset, ...sharedRequestFields(body) }
 */
export function sharedRequestFields(
  body: Record<string, unknown>,
): Pick<RunRequest, 'options' | 'label' | 'webhook_metadata'> {
  return {
    options: (body.options ?? {}) as Record<string, unknown>,
    label: (body.label as string | null | undefined) ?? null,
    webhook_metadata: (body.webhook_metadata as Record<string, unknown> | null | undefined) ?? null,
  };
}

/**
 * The body's `hardware_tier`, or the kind's default; 400 naming it when the catalog has no such.
 * @example hardwareTierOf(body, world.catalog, 'gpu-a10')
 */
export function hardwareTierOf(
  body: Record<string, unknown>,
  catalog: Catalog,
  fallback: string,
): string {
  const tier = (body.hardware_tier as string | undefined) ?? fallback;
  if (!catalog.hardware_tiers.some((t) => t.id === tier))
    throw unknownInCatalog('hardware_tier', 'hardware tier', tier);
  return tier;
}

/**
 * The catalog's dataset of that id: 400 `parameter_invalid` naming `dataset` when it has none.
 * @example catalogDataset(world.catalog, body.dataset as string).cameras
 */
export function catalogDataset(catalog: Catalog, id: string): Catalog['datasets'][number] {
  const found = catalog.datasets.find((d) => d.id === id);
  if (!found) throw unknownInCatalog('dataset', 'dataset', id);
  return found;
}

/** 400 `parameter_invalid` naming `param`: the catalog has no `what` of that id. */
export function unknownInCatalog(param: string, what: string, id: string) {
  return invalidParam(param, MESSAGES.catalogUnknown(what, id));
}
