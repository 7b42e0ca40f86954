/**
 * model/precision/ — How numbers are held: the compute dtype (fp32, or fp16 on a WebGPU adapter with shader-f16), half-precision
 * conversions, and weight formats: q8 / q4 / q4g128 made as tensors are read, published AWQ run as published.
 * A new precision or checkpoint format goes here, with its plan (memory/load-plan.ts) and its parity test.
 */
export * from './quantize';
export * from './awq';
export * from './dtype';
export * from './compute-dtype';
