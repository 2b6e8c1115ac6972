/**
 * World snapshots in the control API (inferred, DESIGN.md section 8): save the world or one
 * account, list, restore, delete, download as a file and load one back.
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errorResponses, jsonAnswer, jsonResponse } from '../../core/contract.js';
import { json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { apiError, invalidParam, MESSAGES } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { SnapshotFileError, shelveSnapshotFile } from './snapshot-file.js';
import { SNAPSHOT_NAME, SNAPSHOT_NAME_RULE, SnapshotScope } from './snapshot-file-contract.js';
import { snapshotFileStream } from './snapshot-stream.js';
import {
  restoreSnapshot,
  saveSnapshot,
  snapshotNamed,
  snapshotView,
  worldAtRest,
} from './snapshots.js';

const Name = z.string().regex(SNAPSHOT_NAME, SNAPSHOT_NAME_RULE);

const NameParam = z.object({
  name: Name.openapi({ param: { name: 'name', in: 'path' }, example: 'base' }),
});

const SnapshotView = z
  .object({
    name: z.string(),
    object: z.literal('snapshot'),
    scope: SnapshotScope.openapi({ description: '`world`: everything; `account`: one account.' }),
    account: z.string().nullable(),
    created_at: z.string().openapi({ description: 'When it was saved (wall time).' }),
    counts: z
      .record(z.string(), z.number().int())
      .openapi({ description: 'Rows per table, fault rules and journal entries.' }),
    stored_bytes: z.number().int().openapi({
      description:
        'The bytes its copies take, counted against `--snapshot-space` (given back when it is deleted).',
    }),
    bytes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The size of its file; null until a download made it.' }),
  })
  .openapi('ControlSnapshot');

const SaveBody = z
  .object({
    name: Name,
    account: z.string().optional().openapi({ description: 'Save only this account.' }),
    snapshot: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'A downloaded snapshot file to load under `name` (at most 1 MiB).' }),
  })
  .strict()
  .openapi({ example: { name: 'base' } });

export const saveSnapshotRoute = route({
  method: 'post',
  path: '/snapshots',
  operationId: 'saveSnapshot',
  summary: 'Save the world (or one account) as a named snapshot, or load a snapshot file',
  description:
    'Saves the whole world as it stands now under `name`, or with `account` that account only; with `snapshot`, loads a file that `GET /_control/snapshots/{name}/download` answered. A name saved again is replaced. A file of another emulator version, another seed, or changed or cut short answers 400; so does a save past `--snapshot-limit` snapshots or `--snapshot-space` of copies, naming the limit.',
  request: { body: json(SaveBody) },
  responses: {
    201: jsonResponse(SnapshotView, 'Saved.'),
    ...errorResponses([400, 404], { 404: 'No such `account`: `resource_not_found`.' }),
  },
});

export const listSnapshotsRoute = route({
  method: 'get',
  path: '/snapshots',
  operationId: 'listSnapshots',
  summary: 'The saved snapshots, oldest first',
  description:
    'Every snapshot of this process, with its scope, when it was saved, its row counts, the bytes its copies take and the size of its file once downloaded; the bytes all take together and the limits.',
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(SnapshotView),
        stored_bytes: z.number().int().openapi({
          description: "The bytes every snapshot's copies take together.",
        }),
        limits: z
          .object({ snapshots: z.number().int(), stored_bytes: z.number().int() })
          .openapi({ description: '`--snapshot-limit` and `--snapshot-space` (in bytes).' }),
      }),
      'Snapshots.',
    ),
  },
});

export const restoreSnapshotRoute = route({
  method: 'post',
  path: '/snapshots/{name}/restore',
  operationId: 'restoreSnapshot',
  summary: 'Put a snapshot back: the whole world, or its account',
  description:
    "Puts the world back as it was saved: clocks, keys, runs, events, webhook endpoints and deliveries, fault rules and their counters, the journal and the id streams. An account's snapshot restores that account only. `Server-Timing` reports the restore's time.",
  request: { params: NameParam },
  responses: {
    200: jsonResponse(SnapshotView, 'Restored.'),
    ...errorResponses([400, 404]),
  },
});

export const deleteSnapshotRoute = route({
  method: 'delete',
  path: '/snapshots/{name}',
  operationId: 'deleteSnapshot',
  summary: 'Drop a snapshot',
  description: 'Drops the named snapshot; the world is not touched.',
  request: { params: NameParam },
  responses: {
    200: jsonResponse(z.object({ name: z.string(), deleted: z.literal(true) }), 'Dropped.'),
    ...errorResponses([400, 404]),
  },
});

export const downloadSnapshotRoute = route({
  method: 'get',
  path: '/snapshots/{name}/download',
  operationId: 'downloadSnapshot',
  summary: 'A snapshot as a file',
  description:
    'The snapshot as a JSON file (`<name>.snapshot.json`), for `--snapshot FILE` or `POST /_control/snapshots` with `snapshot`. API keys are in it as the digests of their secrets, as the database keeps them.',
  request: { params: NameParam },
  responses: {
    200: {
      description: 'The file.',
      content: {
        'application/json': {
          schema: z
            .object({ format: z.literal('svc-emulator-snapshot') })
            .catchall(z.unknown())
            .openapi('ControlSnapshotFile'),
        },
      },
    },
    ...errorResponses([400, 404]),
  },
});

export function registerSnapshots(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(saveSnapshotRoute, async (c) => {
    const body = c.req.valid('json');
    if (body.snapshot) {
      if (body.account !== undefined) throw invalidParam('account', MESSAGES.snapshotBoth);
      const loaded = loadFile(deps, body.snapshot, body.name);
      return c.json(snapshotView(loaded), 201);
    }
    await worldAtRest(deps);
    return c.json(snapshotView(saveSnapshot(deps, body.name, body.account ?? null, true)), 201);
  });

  app.openapi(listSnapshotsRoute, (c) => {
    const shelf = deps.store.snapshots;
    const data = shelf.list().map(snapshotView);
    const { snapshotLimit, snapshotSpaceBytes } = deps.config;
    return c.json(
      {
        object: 'list' as const,
        data,
        stored_bytes: shelf.tables.storedBytes(),
        limits: { snapshots: snapshotLimit, stored_bytes: snapshotSpaceBytes },
      },
      200,
    );
  });

  app.openapi(restoreSnapshotRoute, async (c) => {
    await worldAtRest(deps);
    // Looked up at rest: a call that came in meanwhile may have dropped it.
    const snapshot = snapshotNamed(deps, c.req.valid('param').name);
    const started = performance.now();
    restoreSnapshot(deps, snapshot);
    // What the restore itself took (the bench's figure), beside the wait for settles.
    c.header('Server-Timing', `restore;dur=${(performance.now() - started).toFixed(2)}`);
    return c.json(snapshotView(snapshot), 200);
  });

  app.openapi(deleteSnapshotRoute, (c) => {
    const { name } = c.req.valid('param');
    snapshotNamed(deps, name);
    deps.store.snapshots.remove(name);
    return c.json({ name, deleted: true as const }, 200);
  });

  app.openapi(downloadSnapshotRoute, (c) => {
    const snapshot = snapshotNamed(deps, c.req.valid('param').name);
    // The file's text as made, not re-serialised: the JSON the route declares, sent as bytes.
    return jsonAnswer(fileResponse(c, snapshot.name, snapshotFileStream(deps, snapshot)));
  });
}

/** The file as a download: JSON, named `<name>.snapshot.json`. */
function fileResponse(c: Context<AppEnv>, name: string, body: ReadableStream): Response {
  return c.body(body, 200, {
    'Content-Type': 'application/json',
    'Content-Disposition': `attachment; filename="${name}.snapshot.json"`,
  });
}

/** Shelves an uploaded file: a bad one answers 400 naming `snapshot`. */
function loadFile(deps: Deps, data: unknown, name: string) {
  try {
    return shelveSnapshotFile(deps, data, name);
  } catch (err) {
    if (err instanceof SnapshotFileError)
      throw apiError('parameter_invalid', {
        param: 'snapshot',
        message: err.message,
        details: err.details,
      });
    throw err;
  }
}
