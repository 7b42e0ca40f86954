/** What an explicit attention layer outputs besides its result: its probabilities' rows, and its per-head figures. */
import { DT, type GraphBuilder } from './onnx-builder';
import { INPUT, attnMeanName, attnRowsName, headDiagName, headSharesName } from './graph-io';

/** An inspected layer's outputs: its probabilities' row range per head, and the head mean over a row range of its own. */
export function attentionOutputs(g: GraphBuilder, heads: number, layer: number, probs: string): string[] {
  const rows = g.op('Slice', [probs, INPUT.attnStart, INPUT.attnEnd, g.int64([2])]); // [KV,rep,Q,S]
  const shape = g.op('Concat', [g.int64([heads]), g.op('Shape', [rows], { start: 2 })], { axis: 0 });
  const rowsOut = g.op('Reshape', [rows, shape], {}, attnRowsName(layer));
  // The head mean of every row, then its own row range: many mean rows (the sweep over turns's) cost no per-head
  // copy, and a few cost one read of the probabilities (measured on wasm: no slower than slicing first).
  const meanAll = g.op('ReduceMean', [probs], { axes: [0, 1], keepdims: 0 });
  return [rowsOut, g.op('Slice', [meanAll, INPUT.meanStart, INPUT.meanEnd, g.int64([0])], {}, attnMeanName(layer))];
}

/**
 * A layer's figures per head, reduced here so that no [heads × rows × keys] tensor leaves the session: over
 * the attention rows, the mean attention to each category (key_categories) and to each prior answer's
 * diagonal band (diag_bands).
 */
export function headFigureOutputs(g: GraphBuilder, heads: number, layer: number, probs: string): string[] {
  const rows = g.op('Slice', [probs, INPUT.attnStart, INPUT.attnEnd, g.int64([2])]); // [KV,rep,Q,T]
  const dims = g.op('Shape', [rows], { start: 2 }); // [Q, T]
  const perHead = g.op('Reshape', [rows, g.op('Concat', [g.int64([heads]), dims], { axis: 0 })]); // [H,Q,T]
  const shares = g.op('MatMul', [perHead, INPUT.keyCategories]); // [H,Q,5]
  const sharesOut = g.op('ReduceMean', [shares], { axes: [1], keepdims: 0 }, headSharesName(layer));
  const flat = g.op('Reshape', [perHead, g.int64([heads, -1])]); // [H, Q·T]
  const q = g.op('Cast', [g.op('Slice', [dims, g.int64([0]), g.int64([1]), g.int64([0])])], { to: DT.FLOAT }); // [1]: Q
  return [sharesOut, g.op('Div', [g.op('MatMul', [flat, INPUT.diagBands]), q], {}, headDiagName(layer))]; // [H, answers]
}

/**
 * 0, computed from a layer's outputs: added to something the layer's result depends on, it makes onnxruntime
 * run them within the layer. Outputs nothing else reads are otherwise run after the whole model (its
 * default order), each holding its layer's [heads × S × S] probabilities until then: 30 layers of the 135M
 * shape at 2,048 tokens (4.5 GB) ran out of wasm memory. Exact: 0 × a finite sum is 0.
 */
export function tieToLayer(g: GraphBuilder, outputs: string[], zero: string): string {
  const flat = outputs.map((o) => g.op('Reshape', [o, g.int64([-1])]));
  return g.op('Mul', [g.op('ReduceSum', [flat.length > 1 ? g.op('Concat', flat, { axis: 0 }) : flat[0]!], { keepdims: 0 }), zero]);
}
