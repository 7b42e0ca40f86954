/**
 * model/checkpoint/ — A checkpoint as the graph reads it: safetensors headers and shards, each tensor's bytes produced when asked
 * (a tensor at a time, never a whole file), and the family's tensor names resolved to the decoder's weights.
 */
export * from './checkpoint';
export * from './safetensors';
export * from './tensor-bytes';
export * from './weights';
