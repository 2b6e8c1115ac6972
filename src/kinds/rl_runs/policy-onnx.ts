/**
 * `policy/policy.onnx`: a real ONNX ModelProto (opset 17; field numbers of onnx/onnx.proto) of one
 * MatMul from a 64-float observation to a 16-float action, weights drawn on the request, so an
 * ONNX reader opens it.
 */
import { sha256 } from '../../core/sha256.js';

const OBS = 64;
const ACT = 16;
const FLOAT = 1;

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** A varint field (wire type 0). */
const num = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);

/** A length-delimited field (wire type 2): bytes, a string or a nested message. */
function bytes(field: number, value: Buffer | string): Buffer {
  const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint((field << 3) | 2), varint(data.length), data]);
}

/** ValueInfoProto of a float tensor of shape `dims`. */
function valueInfo(name: string, dims: number[]): Buffer {
  const shape = Buffer.concat(dims.map((d) => bytes(1, num(1, d))));
  const tensorType = Buffer.concat([num(1, FLOAT), bytes(2, shape)]);
  return Buffer.concat([bytes(1, name), bytes(2, bytes(1, tensorType))]);
}

/** The weights: little-endian float32, small and centred on 0 as an initialised layer is. */
function weights(hash: string): Buffer {
  const raw = Buffer.alloc(OBS * ACT * 4);
  // Eight draws per sha256 block.
  let block = sha256(`${hash}:w`);
  for (let i = 0; i < OBS * ACT; i++) {
    if (i > 0 && i % 8 === 0) block = sha256(block);
    const u = block.readUInt32BE((i % 8) * 4) / 2 ** 32;
    raw.writeFloatLE((u - 0.5) * 0.25, i * 4);
  }
  return Buffer.concat([num(1, OBS), num(1, ACT), num(2, FLOAT), bytes(8, 'W'), bytes(9, raw)]);
}

/**
 * The model's bytes for a request hash and policy name.
 * @example policyOnnx(ctx.requestHash, 'franka_panda push RL policy').length // about 4.2 KB
 */
export function policyOnnx(hash: string, name: string): Buffer {
  const node = Buffer.concat([
    bytes(1, 'obs'),
    bytes(1, 'W'),
    bytes(2, 'action'),
    bytes(3, 'policy'),
    bytes(4, 'MatMul'),
  ]);
  const graph = Buffer.concat([
    bytes(1, node),
    bytes(2, name),
    bytes(5, weights(hash)),
    bytes(11, valueInfo('obs', [1, OBS])),
    bytes(12, valueInfo('action', [1, ACT])),
  ]);
  return Buffer.concat([
    num(1, 8), // ir_version 8 goes with opset 17
    bytes(2, 'svc-emulator'),
    bytes(3, '1.0.0'),
    bytes(7, graph),
    bytes(8, num(2, 17)), // opset_import: the default domain, version 17
  ]);
}
