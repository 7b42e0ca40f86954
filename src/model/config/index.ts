/**
 * model/config/ — config.json read into a ModelSpec: the nine families' fields with their defaults, RoPE scaling, and multimodal
 * wrappers whose text model is a supported family. Every refusal names the file and the field.
 */
export * from './config';
export * from './config-fields';
export * from './rope-config';
export * from './multimodal';
