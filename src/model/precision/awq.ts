import type { Cfg } from '../config/config-fields';
import { CONFIG_FILE } from '../config/config-fields';
import { ModelError } from '../errors';
import { f32ToF16 as f16, toFloat32 } from './dtype';
import type { FloatDtype, RawTensor, StoredTensor } from '../checkpoint/checkpoint';
import type { TensorBytes } from '../checkpoint/tensor-bytes';

/**
 * Published AWQ checkpoints (AutoAWQ's GEMM format, as transformers loads them), read straight into
 * onnxruntime's MatMulNBits: no dequantized copy is made for the graph, so an 8B model downloads and holds
 * its 4-bit weights (about 5.7 GB) instead of 16 GB of bf16.
 *
 * Per linear layer `X` of in_features K and out_features N, with group size g (AutoAWQ awq/modules/linear/gemm.py):
 * - `X.qweight` I32 [K, N/8]: eight 4-bit weights of one row k per word, columns interleaved: nibble i of
 *   word c holds column 8c + AWQ_ORDER[i] (so column 8c + j sits in nibble AWQ_REVERSE_ORDER[j]);
 * - `X.qzeros`  I32 [K/g, N/8]: the zero points, packed the same way, stored as they are (no GPTQ-style −1);
 * - `X.scales`  F16 [K/g, N].
 * W[n, k] = (q[k, n] − z[k / g, n]) · s[k / g, n] (awq/utils/packing_utils.py dequantize_gemm). The embedding,
 * lm_head and norms stay in half precision. GPTQ is not read: its qweight maps as directly, but its v1 zero
 * points carry an offset with a borrow between nibbles and its g_idx must be checked; left for later.
 */
export interface AwqConfig {
  bits: 4;
  groupSize: number;
}

/** Nibble of word c that holds column 8c + j. */
export const AWQ_REVERSE_ORDER = [0, 4, 1, 5, 2, 6, 3, 7] as const;

/** A matrix stored packed (AWQ): its parts, as the checkpoint holds them. */
export interface PackedMatrix {
  format: 'awq';
  bits: 4;
  groupSize: number;
  qweight: RawTensor;
  qzeros: RawTensor;
  scales: StoredTensor;
}

/** quantization_config of config.json: AWQ's GEMM layout, or null when the checkpoint is not quantized. */
export function awqConfigOf(cfg: Cfg): AwqConfig | null {
  const q = cfg.quantization_config;
  if (q == null) return null;
  const field = (f: string) => `quantization_config.${f}`;
  if (typeof q !== 'object' || Array.isArray(q)) throw new ModelError(CONFIG_FILE, 'must be an object', 'quantization_config');
  const c = q as Cfg;
  const method = c.quant_method;
  if (method !== 'awq') {
    throw new ModelError(
      CONFIG_FILE,
      `quant_method ${JSON.stringify(method)?.slice(0, 30)} is not read (AWQ checkpoints are: quant_method "awq"; or load the unquantized model and choose q8 or q4)`,
      field('quant_method'),
    );
  }
  const bits = c.bits ?? c.w_bit;
  if (bits !== 4) throw new ModelError(CONFIG_FILE, `AWQ with ${JSON.stringify(bits)} bits is not read (4 bits is)`, field('bits'));
  const version = String(c.version ?? 'gemm').toLowerCase();
  if (!['gemm', 'exllama', 'ipex'].includes(version))
    throw new ModelError(CONFIG_FILE, `AWQ version "${version}" packs its weights another way: GEMM checkpoints are read (version "gemm")`, field('version'));
  if (c.backend === 'llm-awq')
    throw new ModelError(CONFIG_FILE, 'backend "llm-awq" packs its weights another way: AutoAWQ GEMM checkpoints are read', field('backend'));
  const groupSize = c.group_size ?? c.q_group_size;
  // MatMulNBits takes blocks of 16 to 256 (a power of 2): every published AWQ checkpoint uses 128.
  if (typeof groupSize !== 'number' || ![16, 32, 64, 128, 256].includes(groupSize)) {
    throw new ModelError(CONFIG_FILE, `group_size ${JSON.stringify(groupSize)} is not read (16, 32, 64, 128 or 256 is)`, field('group_size'));
  }
  return { bits: 4, groupSize };
}

/**
 * The AWQ parts of each linear layer as one matrix [N, K] under the name the model's plan expects (`X.weight`).
 * Its `packed` parts go to MatMulNBits as they are; its `data` is the float32 dequantization, read only by the
 * float64 reference (and by a graph told to widen it).
 */
export function packAwq(raw: Map<string, RawTensor>, awq: AwqConfig): Map<string, RawTensor | StoredTensor> {
  const out = new Map<string, RawTensor | StoredTensor>(raw);
  for (const [name, qweight] of raw) {
    if (!name.endsWith('.qweight')) continue;
    const base = name.slice(0, -'.qweight'.length);
    const qzeros = raw.get(`${base}.qzeros`);
    const scales = raw.get(`${base}.scales`);
    if (!qzeros || !scales) throw new ModelError(qweight.file, `${base} has qweight but no ${qzeros ? 'scales' : 'qzeros'}: not an AWQ layer`, name);
    if (qweight.dtype !== 'I32' || qzeros.dtype !== 'I32')
      throw new ModelError(qweight.file, `AWQ's qweight and qzeros are I32, not ${qweight.dtype}/${qzeros.dtype}`, name);
    if (scales.dtype === 'I32') throw new ModelError(scales.file, 'AWQ scales are half precision, not I32', scales.name);
    const [K, N8] = qweight.shape as [number, number];
    const N = 8 * N8;
    const groups = K / awq.groupSize;
    const shapeIs = (t: RawTensor, want: number[]) => t.shape.length === want.length && t.shape.every((d, i) => d === want[i]);
    if (qweight.shape.length !== 2 || !Number.isInteger(groups))
      throw new ModelError(
        qweight.file,
        `shape [${qweight.shape}] is not [in_features, out_features / 8] with in_features a multiple of group_size ${awq.groupSize}`,
        name,
      );
    if (!shapeIs(qzeros, [groups, N8]))
      throw new ModelError(qzeros.file, `shape [${qzeros.shape}] is not [${groups}, ${N8}] (in_features / group_size, out_features / 8)`, qzeros.name);
    if (!shapeIs(scales, [groups, N]))
      throw new ModelError(scales.file, `shape [${scales.shape}] is not [${groups}, ${N}] (in_features / group_size, out_features)`, scales.name);
    const packed: PackedMatrix = { format: 'awq', bits: 4, groupSize: awq.groupSize, qweight, qzeros, scales: scales as StoredTensor };
    out.delete(name);
    out.delete(qzeros.name);
    out.delete(scales.name);
    out.set(`${base}.weight`, { name: `${base}.weight`, dtype: 'F32', shape: [N, K], file: qweight.file, data: dequantizedBytes(packed, N, K), packed });
  }
  return out;
}

const words = (b: Uint8Array) => (b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) : new Uint32Array(b.slice().buffer));
/** The 4-bit value of column n in row r of an AWQ-packed [rows, N/8] I32 matrix. */
const nibble = (w: Uint32Array, N8: number, r: number, n: number) => (w[r * N8 + (n >> 3)]! >>> (4 * AWQ_REVERSE_ORDER[n & 7]!)) & 15;

/** The float32 values of W [N, K], dequantized in float64 and rounded once. */
function dequantizedBytes(p: PackedMatrix, N: number, K: number): TensorBytes {
  return {
    byteLength: 4 * N * K,
    transformed: true,
    async prepare() {
      const [pw, pz, ps] = await Promise.all([p.qweight.data.prepare(), p.qzeros.data.prepare(), p.scales.data.prepare()]);
      return (into) => {
        const out = into && into.byteLength >= 4 * N * K ? new Float32Array(into.buffer, into.byteOffset, N * K) : new Float32Array(N * K);
        const q = words(pw());
        const z = words(pz());
        const s = toFloat32(p.scales.dtype, ps());
        const N8 = N / 8;
        for (let k = 0; k < K; k++) {
          const g = Math.floor(k / p.groupSize);
          for (let n = 0; n < N; n++) out[n * K + k] = (nibble(q, N8, k, n) - nibble(z, N8, g, n)) * s[g * N + n]!;
        }
        return new Uint8Array(out.buffer, out.byteOffset, 4 * N * K);
      };
    },
  };
}

/** MatMulNBits' B [N, K/g, g/2]: weight k of a block in the low nibble when k is even (onnxruntime's contrib op). */
export function awqToMatMulNBits(_p: PackedMatrix, N: number, K: number, qweightBytes: Uint8Array, into: Uint8Array): void {
  const q = words(qweightBytes);
  const N8 = N / 8;
  const half = K / 2;
  for (let n = 0; n < N; n++) {
    const row = n * half;
    for (let k = 0; k < K; k += 2) into[row + k / 2] = nibble(q, N8, k, n) | (nibble(q, N8, k + 1, n) << 4);
  }
}

/** MatMulNBits' zero points [N, ⌈blocks/2⌉]: block 2i in the low nibble of byte i. */
export function awqZerosToMatMulNBits(N: number, groups: number, qzerosBytes: Uint8Array, into: Uint8Array): void {
  const z = words(qzerosBytes);
  const N8 = N / 8;
  const perRow = Math.ceil(groups / 2);
  into.fill(0);
  for (let n = 0; n < N; n++) for (let g = 0; g < groups; g++) into[n * perRow + (g >> 1)]! |= nibble(z, N8, g, n) << ((g & 1) * 4);
}

/** MatMulNBits' scales [N · blocks], from AWQ's [blocks, N], in the graph's compute dtype. */
export function awqScalesToMatMulNBits(N: number, groups: number, dtype: FloatDtype, scaleBytes: Uint8Array, half: boolean, into: Uint8Array): void {
  const s = toFloat32(dtype, scaleBytes);
  if (half) {
    const out = new Uint16Array(into.buffer, into.byteOffset, N * groups);
    const src = dtype === 'F16' ? new Uint16Array(scaleBytes.slice().buffer) : null;
    for (let n = 0; n < N; n++) for (let g = 0; g < groups; g++) out[n * groups + g] = src ? src[g * N + n]! : f16(s[g * N + n]!);
  } else {
    const out = new Float32Array(into.buffer, into.byteOffset, N * groups);
    for (let n = 0; n < N; n++) for (let g = 0; g < groups; g++) out[n * groups + g] = s[g * N + n]!;
  }
}
