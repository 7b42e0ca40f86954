/** The dtype the graph computes in, and why: shown next to the backend. */
export type ComputeDtype = 'fp32' | 'fp16';
export type ComputeDtypeOption = 'auto' | ComputeDtype;

/** Bytes per element of a compute dtype. */
export const computeBytes = (d: ComputeDtype): 2 | 4 => (d === 'fp16' ? 2 : 4);

export interface ComputeDtypeChoice {
  dtype: ComputeDtype;
  reason: string;
}

/**
 * fp16 only where it is safe and worth it: the checkpoint is already half precision (F16/BF16), it will
 * run on WebGPU, and the adapter has `shader-f16` (without it ORT's WebGPU EP refuses fp16 MatMul).
 * Everything else computes in fp32, the precision the reference tests pin to 1e-4.
 */
export function chooseComputeDtype(
  option: ComputeDtypeOption,
  ctx: { weightDtypes: string[]; webgpu: boolean; adapterHasF16: boolean | null },
): ComputeDtypeChoice {
  if (option !== 'auto') return { dtype: option, reason: `${option}: asked for` };
  if (!ctx.webgpu) return { dtype: 'fp32', reason: 'fp32: not running on WebGPU' };
  if (!ctx.adapterHasF16) return { dtype: 'fp32', reason: 'fp32: the WebGPU adapter lacks shader-f16' };
  if (ctx.weightDtypes.some((d) => d === 'F32')) return { dtype: 'fp32', reason: 'fp32: the checkpoint is stored in F32' };
  return { dtype: 'fp16', reason: 'fp16: half-precision weights and an adapter with shader-f16 (norms and softmax in fp32)' };
}
