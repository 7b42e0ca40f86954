/**
 * The names and shapes of the graph's inputs and outputs: the contract between model/graph/graph.ts,
 * which builds them, and runtime/, which feeds and fetches them. Nothing else spells these strings.
 *
 * Inputs
 *   input_ids        int64  [1, seq]
 *   rope_cos_r{R}/rope_sin_r{R}  float  [seq, rotary_dim]  rotary embedding R of ModelSpec.ropes (model/graph/rope.ts, in float64)
 *   attn_row_start   int64  [1]  first query row of the attention output
 *   attn_row_end     int64  [1]  one past the last (clamped to seq)
 *   attn_mean_start  int64  [1]  first query row of the head-mean output (its own range: the turns
 *   attn_mean_end    int64  [1]  sweep reads every answer's mean rows, the figures one answer's heads)
 *   logit_row_start  int64  [1]  first position whose logits are computed
 *   logit_row_end    int64  [1]
 *   past_key_l{L}    [1, kv heads, past, head_dim]  (KV-cache graphs only; past = 0 for a whole pass)
 *   past_value_l{L}  [1, kv heads, past, head_dim]
 *   hidden_in        [seq, hidden]  instead of input_ids, in a segment that starts after layer 0
 *   head_mask        float  [layers, heads]  each head's output is multiplied by its value before o_proj:
 *                    1 keeps the head, 0 switches it off (zero ablation); every segment gets the whole mask
 *   head_bias        float  [layers, heads, head_dim]  (head-figure graphs) added to each head's output after
 *                    head_mask: with the mask at 0 and the head's mean output here, mean ablation
 *   key_categories   float  [keys, 5]  (head-figure graphs) each key's category, one-hot in CATEGORIES order
 *   diag_bands       float  [attn rows × keys, answers]  (head-figure graphs) 1 where row i's key j is within r of
 *                    offset i in prior assistant answer p (metrics/band.ts), row-major over (row, key)
 * Outputs
 *   logits                  float [logit rows, vocab]
 *   attn_rows_l{L}          float [heads, attn rows, seq]  inspected layer L, per head
 *   attn_rows_mean_l{L}     float [mean rows, seq]         the mean over heads, of rows attn_mean_start..end
 *   present_key_l{L}        [1, kv heads, past + seq, head_dim]  (KV-cache graphs; compute dtype)
 *   present_value_l{L}      [1, kv heads, past + seq, head_dim]
 *   hidden_out              [seq, hidden]  compute dtype; a segment that ends before the last layer
 *   head_shares_l{L}        float [heads, 5]        (head-figure graphs, every layer) each head's category shares,
 *                                                   the mean over attention rows attn_row_start..end
 *   head_diag_l{L}          float [heads, answers]  each head's diagonal ratio per prior assistant answer, same rows
 * A segment (GraphOptions.layers) has the past/present and attention names of its own layers only.
 * With a cache, `seq` above counts the new tokens and attention rows span past + seq keys.
 */
export const INPUT = {
  ids: 'input_ids',
  attnStart: 'attn_row_start',
  attnEnd: 'attn_row_end',
  meanStart: 'attn_mean_start',
  meanEnd: 'attn_mean_end',
  logitStart: 'logit_row_start',
  logitEnd: 'logit_row_end',
  hidden: 'hidden_in',
  headMask: 'head_mask',
  keyCategories: 'key_categories',
  diagBands: 'diag_bands',
  headBias: 'head_bias',
} as const;

export const HIDDEN_OUT = 'hidden_out';
export const ropeCosName = (rope: number) => `rope_cos_r${rope}`;
export const ropeSinName = (rope: number) => `rope_sin_r${rope}`;

export const LOGITS = 'logits';
export const attnRowsName = (layer: number) => `attn_rows_l${layer}`;
export const attnMeanName = (layer: number) => `attn_rows_mean_l${layer}`;
export const pastKeyName = (layer: number) => `past_key_l${layer}`;
export const pastValueName = (layer: number) => `past_value_l${layer}`;
export const presentKeyName = (layer: number) => `present_key_l${layer}`;
export const presentValueName = (layer: number) => `present_value_l${layer}`;
export const headSharesName = (layer: number) => `head_shares_l${layer}`;
export const headOutMeanName = (layer: number) => `head_out_mean_l${layer}`;
export const headDiagName = (layer: number) => `head_diag_l${layer}`;
