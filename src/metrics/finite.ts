import type { LayerAttention } from './slab';

/** The model produced no numbers (NaN or ±Infinity): nothing is scored from such a pass. */
export class NumericError extends Error {
  override name = 'NumericError';
}

/**
 * Throws where a layer's attention is not a number, naming the layer, the first query and key it
 * happened at, and how many values: a checkpoint with NaN weights, or a config that makes a pass
 * overflow, would otherwise turn every figure into NaN (printed as null, the same null as r = ∞).
 */
export function checkFinite(a: LayerAttention, tokens?: readonly string[]): void {
  const m = a.mean;
  let first = -1;
  let count = 0;
  for (let k = 0; k < m.data.length; k++) {
    if (!Number.isFinite(m.data[k]!)) {
      if (first < 0) first = k;
      count++;
    }
  }
  if (first < 0) return;
  const row = m.rowStart + Math.floor(first / m.seqLen);
  const key = first % m.seqLen;
  const name = (i: number) => (tokens?.[i] !== undefined ? ` ${JSON.stringify(tokens[i]!.slice(0, 20))}` : '');
  throw new NumericError(
    `layer ${a.layer}'s attention is not a number (NaN or infinite) in ${count.toLocaleString('en-US')} of ${m.data.length.toLocaleString('en-US')} values, first at query #${row}${name(row)} → key #${key}${name(key)}: ` +
      "the checkpoint's weights hold NaN/Inf, or its config.json makes the pass overflow (rms_norm_eps, rope_theta, the multipliers). No figure is shown from this pass.",
  );
}
