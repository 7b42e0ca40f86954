import { rowSums } from '../metrics/inertia';
import { topTokens } from '../model/graph/logits';
import type { AnalysisModel } from './analyze';

export interface ForwardProbe {
  tokens: number;
  /** The most likely next tokens after the text. */
  next: { id: number; prob: number; logit: number; token: string; text: string }[];
  /** The final layer's attention over every row: its shape and row sums (each must be 1). */
  layer: number;
  shape: [number, number, number];
  headMeanRowSums: number[];
  perHeadRowSumRange: [number, number];
}

/**
 * One raw forward pass over a text (or the text as a user message through the chat template): the
 * next-token distribution and the attention's row sums, the check that the model runs and its
 * attention is a distribution. The CLI's `forward` and the app's "Raw forward pass" both show this.
 */
export async function forwardProbe(m: AnalysisModel, text: string, opts: { chat: boolean; top?: number }): Promise<ForwardProbe> {
  const rendered = opts.chat ? m.tokenizer.render([{ role: 'user', content: text }], true) : text;
  const ids = m.tokenizer.encode(rendered);
  if (ids.length === 0) throw new Error('the text tokenizes to no tokens');
  const S = ids.length;
  const layer = m.session.spec.numLayers - 1;
  const out = await m.session.forward({ ids, attnRows: [0, S], perHead: true, layers: [layer] });
  const att = out.attention[0]!;
  const headSums = rowSums(att.perHead!);
  return {
    tokens: S,
    next: topTokens(out.logits!.data, opts.top ?? 5).map((t) => ({ ...t, token: m.tokenizer.tokenString(t.id), text: m.tokenizer.decode([t.id]) })),
    layer: att.layer,
    shape: [att.perHead!.heads, att.mean.rows, S],
    headMeanRowSums: rowSums(att.mean),
    perHeadRowSumRange: [Math.min(...headSums), Math.max(...headSums)],
  };
}
