/**
 * Replay bundles in the control API (inferred; DESIGN.md section 8): mark where a recording
 * starts, read how far it got, and download the world at the mark with every call since.
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import type { BundleSettings } from './bundle-contract.js';
import { buildBundle } from './bundle-file.js';
import type { BundleRecorder } from './recorder.js';

const MarkView = z
  .object({
    object: z.literal('bundle_mark'),
    marked: z.boolean().openapi({ description: 'Whether calls are recorded from a mark.' }),
    reason: z.enum(['start', 'reset', 'mark']).nullable().openapi({
      description:
        '`start` or `reset` (`--bundle-record` marks there), `mark` (`POST /_control/bundle/mark`).',
    }),
    marked_at: z.string().nullable().openapi({ description: 'When the mark was set (wall time).' }),
    auto: z
      .boolean()
      .openapi({ description: '`--bundle-record`: a mark at the start and each reset.' }),
    calls: z.number().int().openapi({ description: 'Calls recorded since the mark.' }),
    webhook_attempts: z.number().int().openapi({
      description: 'Webhook attempts started or answered since the mark.',
    }),
    bytes: z.number().int().openapi({ description: 'What the recorded calls take, about.' }),
    limit_bytes: z.number().int().openapi({ description: '`--bundle-limit`, in bytes.' }),
    world_bytes: z
      .number()
      .int()
      .openapi({ description: "What the mark's copy of the world takes." }),
    overflow_at: z.number().int().nullable().openapi({
      description: 'The call that passed `--bundle-limit`, after which nothing is recorded.',
    }),
  })
  .openapi('ControlBundleMark', {
    example: {
      object: 'bundle_mark',
      marked: true,
      reason: 'mark',
      marked_at: '2026-05-04T10:11:12.000Z',
      auto: false,
      calls: 12,
      webhook_attempts: 2,
      bytes: 9_600,
      limit_bytes: 67_108_864,
      world_bytes: 81_920,
      overflow_at: null,
    },
  });

export const markBundleRoute = route({
  method: 'post',
  path: '/bundle/mark',
  operationId: 'markBundle',
  summary: 'Start recording a replay bundle here',
  description:
    'Copies the world as it stands and records every call from now on (product calls, clock moves, fault rules and control calls, each with its answer), dropping what was recorded before. Until a mark (or `--bundle-record`), nothing is recorded.',
  responses: { 201: jsonResponse(MarkView, 'Marked.') },
});

export const bundleMarkRoute = route({
  method: 'get',
  path: '/bundle/mark',
  operationId: 'getBundleMark',
  summary: 'How far the recording got',
  description: 'The mark, and the calls, webhook attempts and bytes recorded since.',
  responses: { 200: jsonResponse(MarkView, 'The mark.') },
});

export const downloadBundleRoute = route({
  method: 'get',
  path: '/bundle',
  operationId: 'downloadBundle',
  summary: 'A replay bundle: the world at the mark and every call since',
  description:
    "A `.tar.gz` holding the emulator's version, seed and settings, the world (or with `account` one account) at the mark, and every call since in order with the answer it got (status, headers, body digest), key secrets replaced by labels. `svc-emulator replay FILE` makes the calls again and exits 0 when every answer is the same; `--bundle FILE` serves the world at the mark. 409 `bundle_not_recording` before a mark; 409 `bundle_too_large` past `--bundle-limit`, saying how to narrow it.",
  request: {
    query: z.object({
      account: z.string().optional().openapi({
        description: "One account's calls and rows, and the fault rules.",
        example: 'acct_00000000000000000000000001',
      }),
    }),
  },
  responses: {
    200: {
      description: 'The bundle, `svc-emulator-bundle.tar.gz`.',
      content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
    },
    ...errorResponses([404, 409], {
      404: 'No such `account` at the mark or since: `resource_not_found`.',
      409: 'Nothing recorded (`bundle_not_recording`), or past `--bundle-limit` (`bundle_too_large`).',
    }),
  },
});

export function registerBundles(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  recorder: BundleRecorder,
  /** The emulator's settings as the bundle records them. */
  settings: () => BundleSettings,
): void {
  const view = () => {
    const mark = recorder.mark;
    return {
      object: 'bundle_mark' as const,
      marked: mark !== null,
      reason: mark?.reason ?? null,
      marked_at: mark?.wallAt ?? null,
      auto: recorder.auto,
      calls: recorder.calls,
      webhook_attempts: recorder.attempts.length,
      bytes: recorder.bytes,
      limit_bytes: recorder.limitBytes,
      world_bytes: mark?.storedBytes ?? 0,
      overflow_at: recorder.overflowAt,
    };
  };

  app.openapi(markBundleRoute, async (c) => {
    await recorder.markNow(deps, 'mark');
    deps.webhooks.hooks = recorder.webhookHooks();
    return c.json(view(), 201);
  });

  app.openapi(bundleMarkRoute, (c) => c.json(view(), 200));

  app.openapi(downloadBundleRoute, async (c) => {
    const { account } = c.req.valid('query');
    const { bytes, filename } = await buildBundle(deps, recorder, settings(), account ?? null);
    // Bytes, not JSON: the route declares `application/gzip`, so it takes a Response.
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${filename}"`,
    });
  });
}
