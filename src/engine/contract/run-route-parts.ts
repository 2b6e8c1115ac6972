/** A run kind's contract, and the parts every route of the kind is built from. */
import { z } from '@hono/zod-openapi';
import { INFERRED, operationGuards, withArticle } from '../../core/contract.js';
import {
  type ErrorAnswersSpec,
  EXAMPLE_ULID,
  type NamedResource,
} from '../../core/error-answers.js';
import { pascal, type RunKindAddress } from './run-shapes.js';

/** What the factory needs to know of a kind: where it lives, and its schemas. */
export interface RunKindContract extends RunKindAddress {
  /** The create body (its own fields plus `options`, `label`, `webhook_metadata`). */
  createBody: z.ZodObject;
  /** The resource body. */
  resource: z.ZodObject;
  /**
   * The create's own error codes and their examples (400 `camera_not_found`, 409
   * `policy_in_training`); its 409s answer a resume too, which starts the run again.
   */
  createErrors?: Pick<ErrorAnswersSpec, 'codes' | 'examples'>;
  /** What a run of this kind yields, for descriptions. */
  yields: string;
  /** The path parameter naming a run, when not `run_id`. */
  idParam?: string;
}

/** What the routes of one kind are built from: its contract, and names, guards and path of it. */
export function routeParts(k: RunKindContract) {
  const idParam = k.idParam ?? 'run_id';
  // The tag in a sentence: `training runs`; an acronym keeps its case (`RL runs`).
  const plural = /^[A-Z]{2,}\b/.test(k.tag)
    ? k.tag
    : k.tag.charAt(0).toLowerCase() + k.tag.slice(1);
  const singular = plural.replace(/s$/, '');
  const aRun = withArticle(singular);
  return {
    ...k,
    /** The kind's name as words in a 404 message: `training run`. */
    noun: k.name.replace('_', ' '),
    /** The kind in a summary: `training runs`, `training run`, `an RL run`. */
    plural,
    singular,
    aRun,
    /** The kind's name in PascalCase, for operation ids and components. */
    one: pascal(k.name),
    /** `/v1/<collection>`. */
    base: `/v1/${k.collection}`,
    idParam,
    /** The run the path names, as a 404 names it (`noun`: the kind's name, or the logs' noun). */
    named: (noun: string = k.name): NamedResource => ({
      noun,
      id: `${k.prefix}_${EXAMPLE_ULID}`,
      param: idParam,
    }),
    common: { tags: [k.tag], ...INFERRED },
    guards: (verb: 'read' | 'write') =>
      operationGuards({
        versions: ['2026-09-27'],
        scope: `${k.scope}:${verb}`,
        ...(k.feature ? { feature: k.feature } : {}),
      }),
    params: z.object({
      [idParam]: z.string().openapi({
        param: { name: idParam, in: 'path' },
        description: `${aRun.charAt(0).toUpperCase()}${aRun.slice(1)} id: \`${k.prefix}_...\`.`,
      }),
    }),
  };
}

export type RunRouteParts = ReturnType<typeof routeParts>;
