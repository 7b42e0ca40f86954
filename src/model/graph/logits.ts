/** The k most likely next tokens of one row of logits, with softmax probabilities (computed in float64). */
export function topTokens(logits: ArrayLike<number>, k: number): { id: number; logit: number; prob: number }[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]!);
  let z = 0;
  for (let i = 0; i < logits.length; i++) z += Math.exp(logits[i]! - max);
  const ids = Array.from({ length: logits.length }, (_, i) => i).sort((a, b) => logits[b]! - logits[a]! || a - b);
  return ids.slice(0, k).map((id) => ({ id, logit: logits[id]!, prob: Math.exp(logits[id]! - max) / z }));
}
