import type { PolicyResult } from '../analysis/analyze';
import type { SweepPoint } from '../analysis/sweep';
import type { AttentionSlab } from '../metrics/slab';
import cached from '../../examples/cache/maze-full.json';

/**
 * The start screen's figures while the demo model loads: the maze example under Full, computed by
 * `npm run cache-example` on the same model and pinned to a fresh run by tests/state/cached-result.test.ts.
 */
export interface CachedFile {
  model: string;
  example: string;
  policy: string;
  sweep: SweepPoint[];
  result: Omit<PolicyResult, 'attention'> & { attention: { layer: number; mean: AttentionSlab<number[]>; perHead: null } };
}

export function cachedStartResult(): { example: string; policy: string; sweep: SweepPoint[]; result: PolicyResult } {
  const c = cached as unknown as CachedFile;
  const radius = c.result.radius ?? Infinity;
  return {
    example: c.example,
    policy: c.policy,
    sweep: c.sweep,
    result: {
      ...c.result,
      radius,
      attention: { ...c.result.attention, mean: { ...c.result.attention.mean, data: Float32Array.from(c.result.attention.mean.data) } },
    },
  };
}
