/**
 * model/graph/ — The decoder as an ONNX graph, built in code from the spec and the weights (graph.ts), its inputs and outputs
 * (graph-io.ts, the contract with the runtime), RoPE tables, and the float64 reference forward the parity tests hold it to.
 */
export * from './graph';
export * from './graph-weights';
export * from './graph-io';
export * from './onnx-builder';
export * from './rope';
export * from './reference';
export * from './logits';
