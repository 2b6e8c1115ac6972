/**
 * Twins seeded by the control API (DESIGN.md section 5), with generated or given files: in a fixed
 * state, or built on the clock like a created twin (failing `reconstruction_failed` with `fail`).
 * Either lists the seeded files once succeeded and builds no archive; its scene is the catalog's
 * first dataset's first episode.
 */
import { z } from '@hono/zod-openapi';
import { sha256Hex } from '../../core/canonical-json.js';
import { FileEntry, Timestamp } from '../../core/contract.js';
import { toTimestamp } from '../../core/timestamp.js';
import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';
import type { RunState } from '../../engine/records.js';
import type { KindSeed } from '../../engine/run-kind.js';
import { seededFailure } from '../../engine/timeline/failure.js';
import { partPath, SCENE_PATH, twinPartsOf } from './outputs.js';
import type { TwinRequest } from './request.js';

/** The most files one seeded twin generates: 10,000 rows are written in about 0.1 s. */
const MAX_GENERATED_FILES = 10_000;

const TwinInput = z
  .object({
    id: z
      .string()
      .regex(/^twin_[0-9A-Za-z]{1,64}$/)
      .optional(),
    status: z.enum(RUN_STATUSES).optional().openapi({
      description:
        'A fixed state. Without it the twin is built on the clock: queued 1 s, then its phases (extracting, reconstructing, validating, packaging) 4 s, then succeeded (or failed `reconstruction_failed` with `fail: true`).',
    }),
    fail: z.boolean().optional(),
    files: z.array(FileEntry).optional(),
    generate_files: z.number().int().min(0).max(MAX_GENERATED_FILES).optional().openapi({
      description: 'Generate this many files when `files` is absent (default 3, at most 10,000).',
    }),
  })
  .strict()
  .openapi('ControlTwinInput', { example: { status: 'succeeded', generate_files: 3 } });
type TwinInput = z.infer<typeof TwinInput>;

const SeededTwin = z.object({
  id: z.string(),
  object: z.literal('twin'),
  status: z.enum(RUN_STATUSES),
  file_count: z.number().int(),
  created_at: Timestamp,
});

/** Deterministic stand-in files of a twin's archive: digests of bytes derived from the id. */
function generateTwinFiles(twinId: string, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const content = `#usda 1.0\n# twin ${twinId}, part ${i}\n`;
    return { path: partPath(i), bytes: Buffer.byteLength(content), sha256: sha256Hex(content) };
  });
}

/**
 * A twin seeded in a fixed state at `at` (no attempt): started and ended, as its status says, when
 * seeded; a failed one failed `interrupted`, which a resume can retry.
 */
function seededTwinState(status: RunState['status'], at: string, request: TwinRequest): RunState {
  const { parts } = request;
  const succeeded = status === 'succeeded';
  const ended = succeeded || status === 'failed' || status === 'canceled';
  return {
    status,
    phase: null,
    progress: succeeded ? 1 : 0,
    status_message: null,
    episodes: { done: succeeded ? parts : 0, total: parts },
    error: status === 'failed' ? seededFailure() : null,
    result: succeeded
      ? { scene: { path: SCENE_PATH, parts }, dataset: request.dataset, episode: request.episode }
      : null,
    download: null,
    tokens: { charged: 0, refunded: 0 },
    service_version: null,
    started_at: status !== 'queued' ? at : null,
    completed_at: ended ? at : null,
    given_files: true,
  };
}

export const twinSeed: KindSeed<'seedTwin', typeof TwinInput, typeof SeededTwin> = {
  operationId: 'seedTwin',
  summary: 'A twin in a given state, with generated or given files',
  description:
    'Creates a twin in a fixed state with given or generated files, or without `status` builds it on the clock.',
  input: TwinInput,
  response: SeededTwin,
  errors: { 400: undefined, 404: undefined },
  seed(body, ops) {
    const input = body as TwinInput;
    const id = input.id ?? ops.newId('twin');
    ops.ensureNew(id);
    const files = input.files ?? generateTwinFiles(id, input.generate_files ?? 3);
    const dataset = ops.catalog.datasets[0]!;
    const episode = dataset.episodes[0]!;
    const request: TwinRequest = {
      dataset: dataset.id,
      episode: episode.index,
      hardware_tier: 'gpu-a10',
      parts: twinPartsOf(episode),
      options: {},
      label: null,
      webhook_metadata: null,
      seeded_file_count: files.length,
    };
    // Its files are stored now and listed once it has succeeded (409 `twin_not_ready` until then).
    if (input.status === undefined)
      return ops.start(id, request, {
        outcomes: input.fail ? [{ fail: 'reconstruction_failed' }] : undefined,
        files,
      });
    const state = seededTwinState(input.status, toTimestamp(ops.now), request);
    // Its listing is stored: the first attempt a resume starts drops it.
    if (files.length > 0) state.stored_rows = true;
    const record = ops.insert(id, request, state);
    ops.keepFiles(id, files);
    return record;
  },
  view: (record) => ({
    id: record.id,
    object: 'twin',
    status: record.state.status,
    file_count: record.request.seeded_file_count,
    created_at: record.createdAt,
  }),
};
