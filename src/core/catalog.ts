import { z } from 'zod';

/** `fixtures/catalog.json`: what scenarios are checked against and `/v1/catalog` lists. */
export const CatalogSchema = z
  .object({
    robots: z.array(z.object({ id: z.string(), embodiments: z.array(z.string()).min(1) })).min(1),
    tasks: z
      .array(
        z.object({
          id: z.string(),
          embodiments: z.array(z.string()).min(1),
          default_max_steps: z.number().int().min(100).max(20000),
          est_episode_s: z.number().gt(0).max(3600),
        }),
      )
      .min(1),
    environments: z.array(z.object({ id: z.string(), default: z.boolean().optional() })).min(1),
    object_sets: z.array(z.object({ id: z.string(), objects: z.array(z.string()) })),
    assets: z.array(z.string()),
    // Inferred (API document section 1 names "Policies, hardware tiers, dataset inspection").
    policies: z.array(
      z.object({ id: z.string(), name: z.string(), robot: z.string(), created_at: z.string() }),
    ),
    hardware_tiers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        capacity: z.object({
          concurrent_runs: z.number().int().min(1),
          tokens_per_minute: z.number().gt(0),
        }),
      }),
    ),
    datasets: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        robot: z.string(),
        fps: z.number().int().min(1),
        cameras: z.array(z.string()).min(1),
        episodes: z.array(
          z.object({ index: z.number().int().min(0), duration_s: z.number().gt(0) }),
        ),
      }),
    ),
  })
  .strict()
  .refine((c) => c.environments.filter((e) => e.default).length === 1, {
    message: 'exactly one environment must be marked default',
    path: ['environments'],
  });
export type Catalog = z.infer<typeof CatalogSchema>;

export function defaultEnvironment(catalog: Catalog): string {
  return catalog.environments.find((e) => e.default)!.id;
}
