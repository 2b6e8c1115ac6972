/** The example of the Evaluation schema: a real answer of the emulator. */

const EVAL_ID = 'eval_01KDVDNA00FBZ34S3TAF1ZB8D7';
const EVAL_URL = `http://127.0.0.1:8710/v1/evaluations/${EVAL_ID}`;

/** A succeeded evaluation as the emulator answers it (seed 0, manual clock). */
export const EVALUATION_EXAMPLE = {
  id: EVAL_ID,
  object: 'evaluation',
  status: 'succeeded',
  phase: null,
  progress: 1,
  status_message: 'Succeeded',
  episodes: { done: 10, total: 10 },
  spec: { path: 'specs/pick_place.yaml', name: 'pick_place' },
  error: null,
  service_version: '2026-09-27',
  options: {},
  label: null,
  result: {
    verified: true,
    run_id: 'ef3f9f3f7cc8',
    manifest_hash: 'ef3f9f3f7cc8771dd9d99afcb590f41a984eb3e4d02e8a8bd391397ae1dca083',
    run_hash: 'ee4a23f6ac7db2ca7f9f87c9bd7277569ea8b1a3372bf8cf534089359ffe3d63',
    determinism_verified: true,
    metrics: [
      { id: 'success_rate', version: '1.0.0', value: 0.8, interval: [0.490162, 0.943318], n: 10 },
    ],
  },
  download: {
    url: `${EVAL_URL}/archive`,
    requires_auth: true,
    expires_at: null,
    filename: `${EVAL_ID}.tar.gz`,
    bytes: 1243,
    sha256: '5566f3b1512726fe1b6eeba6956f192aabb1b350a8a000c6c0a253914325227a',
  },
  tokens: { charged: 60, refunded: 0 },
  webhook_metadata: null,
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: '2026-01-01T00:00:00.500Z',
  completed_at: '2026-01-01T00:00:05.000Z',
  links: {
    self: EVAL_URL,
    logs: `http://127.0.0.1:8710/v1/sim_runs/${EVAL_ID}/logs`,
    files: `http://127.0.0.1:8710/v1/sim_runs/${EVAL_ID}/files`,
    archive: `${EVAL_URL}/archive`,
  },
};
