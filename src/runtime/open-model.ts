import { loadCheckpoint, type Checkpoint } from '../model/checkpoint';
import { buildGraph, type BuiltGraph, type GraphOptions } from '../model/graph';
import type { ModelSource, ReadProgress } from '../model/source';
import { ChatTokenizer } from '../model/tokenizer';
import { resolveWeights, type ModelWeights } from '../model/weights';
import { ModelSession, type Backend } from './ort-runtime';

export type LoadStage = 'download' | 'build' | 'session';
export interface LoadProgress {
  stage: LoadStage;
  /** Present during download. */
  read?: ReadProgress;
}

export interface OpenModel {
  checkpoint: Checkpoint;
  weights: ModelWeights;
  graph: BuiltGraph;
  session: ModelSession;
  tokenizer: ChatTokenizer;
}

export interface OpenOptions extends GraphOptions {
  prefer?: Backend[];
  onProgress?: (p: LoadProgress) => void;
}

/** Source → checkpoint → graph → session, plus the tokenizer: the one path every model takes. */
export async function openModel(source: ModelSource, options: OpenOptions = {}): Promise<OpenModel> {
  const progress = options.onProgress;
  const onRead = (read: ReadProgress) => progress?.({ stage: 'download', read });
  const checkpoint = await loadCheckpoint(source, onRead);
  const tokenizer = await ChatTokenizer.load(source);
  progress?.({ stage: 'build' });
  const weights = resolveWeights(checkpoint.spec, checkpoint);
  const graph = buildGraph(checkpoint.spec, weights, options);
  progress?.({ stage: 'session' });
  const session = await ModelSession.create(graph, checkpoint.spec, options.prefer);
  return { checkpoint, weights, graph, session, tokenizer };
}
