import { normalizeConfig, type ModelSpec } from '../../src/model/config/config';
import { f32ToBf16, f32ToF16 } from '../../src/model/precision/dtype';
import type { SafetensorsDtype } from '../../src/model/checkpoint/safetensors';
import { tensorPlan, type PlannedTensor } from '../../src/model/checkpoint/weights';
import { mulberry32 } from '../../src/util/random';

/**
 * Random weights for any config, tensor by tensor, in the checkpoint's HF layout (the tensor plan of
 * src/model/checkpoint/weights.ts): the tests' tiny checkpoints and the rehearsal's real-shape ones. Gains are
 * chosen so attention is peaked and layers matter: a test with near-uniform attention proves little.
 */
export interface RandomTensor {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  bytes: Uint8Array;
}

/** mulberry32 + Box–Muller: deterministic normal samples. */
function normals(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

function encode(values: Float32Array, dtype: SafetensorsDtype): Uint8Array {
  if (dtype === 'I32') throw new Error('random tensors are floating point');
  if (dtype === 'F32') return new Uint8Array(values.buffer);
  const conv = dtype === 'F16' ? f32ToF16 : f32ToBf16;
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = conv(values[i]!);
  return new Uint8Array(out.buffer);
}

/** Mean and spread of each role's values. */
function init(spec: ModelSpec, t: PlannedTensor): { mean: number; std: number } {
  const D = spec.hiddenSize;
  const normMean = spec.normOffset ? 0 : 1; // Gemma stores w for a scale of 1 + w
  switch (t.role) {
    case 'embed':
      return { mean: 0, std: 1 };
    case 'attnInNorm':
    case 'attnOutNorm':
    case 'mlpInNorm':
    case 'mlpOutNorm':
    case 'norm':
      return { mean: normMean, std: 0.1 };
    case 'qNorm':
    case 'kNorm':
      return { mean: normMean + 0.5, std: 0.3 };
    case 'q':
    case 'k':
    case 'qkv':
      return { mean: 0, std: 2 / Math.sqrt(D) };
    case 'v':
    case 'gate':
    case 'up':
    case 'gateUp':
    case 'lmHead':
      return { mean: 0, std: 1 / Math.sqrt(D) };
    case 'o':
      return { mean: 0, std: 1 / Math.sqrt(spec.numHeads * spec.headDim) };
    case 'down':
      return { mean: 0, std: 1 / Math.sqrt(spec.intermediateSize) };
    default:
      return { mean: 0, std: 0.2 }; // biases
  }
}

/** Every tensor of a random checkpoint for `config`, generated one at a time. */
export function* randomTensors(config: Record<string, unknown>, dtype: SafetensorsDtype, seed: number): Generator<RandomTensor> {
  const spec = normalizeConfig(config);
  const randn = normals(seed);
  for (const t of tensorPlan(spec)) {
    const { mean, std } = init(spec, t);
    const n = t.shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = mean + std * randn();
    yield { name: t.name, dtype, shape: t.shape, bytes: encode(values, dtype) };
  }
}
