/** What a training attempt produces (DESIGN.md section 7), drawn on the request's hash. */
import { canonicalJson, canonicalJsonFile, sha256Hex } from '../../core/canonical-json.js';
import { sha256 } from '../../core/sha256.js';
import { wilsonInterval } from '../../core/wilson-interval.js';
import type { RunRequest } from '../../engine/records.js';
import { draw } from '../draw.js';

/** A training run's stored request: the create body resolved, plus the base policy's robot. */
export interface TrainingRunRequest extends RunRequest {
  policy: string;
  dataset: string;
  hardware_tier: string;
  config: { epochs: number; learning_rate: number };
  name: string;
  /** The base policy's robot (and the dataset's): the new policy's robot. */
  robot: string;
}

/** Evaluation episodes the fine-tuned policy runs once trained (the `n` of its interval). */
const EVAL_EPISODES = 20;
export const CHECKPOINT_PATH = 'policy/checkpoint.safetensors';
/** The one tensor of the checkpoint: a 32 x 32 float32 adapter, 4 KiB of data. */
const TENSOR_SIDE = 32;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The hash every draw of a request derives from; independent of the id, time and account. */
export function requestHash(r: TrainingRunRequest): string {
  return sha256Hex(
    canonicalJson({ policy: r.policy, dataset: r.dataset, robot: r.robot, config: r.config }),
  );
}

/**
 * The loss after each epoch (index 0: before training); each epoch multiplies it by 0.6 to 0.9,
 * multiplication only so that the curve is bit-identical on every platform.
 */
export function lossCurve(hash: string, epochs: number): number[] {
  const curve = [2 + draw(hash, 'loss:0')];
  for (let e = 1; e <= epochs; e++)
    curve.push(curve[e - 1]! * (0.6 + 0.3 * draw(hash, `loss:${e}`)));
  return curve.map(round6);
}

/** The evaluation of the fine-tuned policy: `EVAL_EPISODES` episodes at `rate`. */
export function evalMetrics(hash: string, rate: number) {
  let successes = 0;
  for (let i = 1; i <= EVAL_EPISODES; i++) if (draw(hash, `eval:${i}`) < rate) successes += 1;
  return {
    eval_success_rate: round6(successes / EVAL_EPISODES),
    interval: wilsonInterval(successes, EVAL_EPISODES),
    n: EVAL_EPISODES,
  };
}

/**
 * The checkpoint in the safetensors layout (header length, JSON header, tensor data), so a reader
 * of the format opens it; its weights are float32 draws on the request hash.
 */
export function checkpointBytes(hash: string, r: TrainingRunRequest): Buffer {
  const count = TENSOR_SIDE * TENSOR_SIDE;
  const header = {
    __metadata__: { base_policy: r.policy, dataset: r.dataset, format: 'pt' },
    'adapter.weight': {
      dtype: 'F32',
      shape: [TENSOR_SIDE, TENSOR_SIDE],
      data_offsets: [0, count * 4],
    },
  };
  let json = JSON.stringify(header);
  json = json.padEnd(Math.ceil(json.length / 8) * 8, ' ');
  const data = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i += 8) {
    const block = sha256(`${hash}:weights:${i / 8}`);
    for (let j = 0; j < 8; j++)
      data.writeFloatLE((block.readUInt32BE(j * 4) / 2 ** 32 - 0.5) / 10, (i + j) * 4);
  }
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, Buffer.from(json, 'utf8'), data]);
}

/** The files of the run directory `<id>/`, for `buildArchive()`. */
export function archiveEntries(
  r: TrainingRunRequest,
  result: Record<string, unknown>,
  checkpoint: Buffer,
  losses: number[],
  logLines: string[],
) {
  return [
    { path: CHECKPOINT_PATH, content: checkpoint },
    {
      path: 'policy/config.json',
      content: canonicalJsonFile({
        policy: result.policy,
        base_policy: r.policy,
        dataset: r.dataset,
        robot: r.robot,
        config: r.config,
        checkpoint: result.checkpoint,
      }),
    },
    {
      path: 'metrics.json',
      content: canonicalJsonFile({
        epochs: losses.slice(1).map((loss, i) => ({ epoch: i + 1, loss })),
        evaluation: result.metrics,
      }),
    },
    { path: 'logs/train.log', content: logLines.map((l) => `${l}\n`).join('') },
  ];
}
