/**
 * What the CPL-tuned demo model shows next to the base model (paper 2 Fig. 7 and §3.5, at demo scale),
 * measured with the analysis pipeline itself. Shared by `npm run cpl-figures` (prints) and
 * tests/model/cpl-model.test.ts (asserts).
 */
import { analyzePolicy, type AnalysisModel } from '../src/analysis/analyze';
import type { Conversation, Message } from '../src/conversation/types';
import { median } from '../src/metrics/stats';
import { actionOf, greedyAnswer } from './cpl-pairs';
import { MAZE_SYSTEM, mazeMove, mazeObservation, mazeWorld, rng } from './data';
import { heldOutEpisodes, mazeExample } from './figures';

export const CPL_DIR = 'models/inertia-demo-cpl';
export const CPL_POLICIES = ['full', 'clip:12:1'] as const;

export interface AttentionFigures {
  /** Diagonal ratio and prior-assistant share of the last answer, per policy. */
  diagonal: Record<string, number>;
  prior: Record<string, number>;
}

async function attentionFigures(model: AnalysisModel, conv: Conversation): Promise<AttentionFigures> {
  const out: AttentionFigures = { diagonal: {}, prior: {} };
  for (const p of CPL_POLICIES) {
    const r = await analyzePolicy(model, conv, p);
    out.diagonal[p] = r.diagonal;
    out.prior[p] = r.ratios.prior;
  }
  return out;
}

/** The maze example, then the held-out episodes of training/figures.ts (seeds from 990,000, 10+ turns). */
export async function cplAttention(model: AnalysisModel, n = 8): Promise<{ example: AttentionFigures; episodes: AttentionFigures[] }> {
  const episodes: AttentionFigures[] = [];
  for (const { conv } of heldOutEpisodes(n)) episodes.push(await attentionFigures(model, conv));
  return { example: await attentionFigures(model, mazeExample()), episodes };
}

export interface RolloutFigures {
  episodes: number;
  reachedGoal: number;
  /** Turns right after a wall was hit, and how many of them repeat the action that hit it. */
  afterBump: number;
  repeatedIntoWall: number;
  /** Answers without an action line (the model lost the format). */
  malformed: number;
}

/** The model plays held-out mazes (seeds 700,000 + k) greedily under Full, as the environment answers. */
export async function cplRollouts(model: AnalysisModel, episodes = 40, turns = 16): Promise<RolloutFigures> {
  const out: RolloutFigures = { episodes, reachedGoal: 0, afterBump: 0, repeatedIntoWall: 0, malformed: 0 };
  for (let k = 0; k < episodes; k++) {
    let world = mazeWorld(rng(700_000 + k));
    let bumped = false;
    let last: string | null = null;
    const history: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
    for (let t = 1; t <= turns; t++) {
      history.push({ role: 'user', content: mazeObservation(world, t, bumped) });
      const { text } = await greedyAnswer(model, history);
      history.push({ role: 'assistant', content: text });
      const act = actionOf(text);
      if (act === null) {
        out.malformed++;
        break;
      }
      if (bumped) {
        out.afterBump++;
        if (act === last) out.repeatedIntoWall++;
      }
      if (act === 'stay') break;
      ({ world, bumped } = mazeMove(world, act));
      last = act;
      if (world.x === world.gx && world.y === world.gy) {
        out.reachedGoal++;
        break;
      }
    }
  }
  return out;
}

/** Relative change, CPL against base: −0.1 is 10 % lower. */
export const change = (base: number, cpl: number) => cpl / base - 1;
export const medianChange = (base: number[], cpl: number[]) => median(base.map((b, i) => change(b, cpl[i]!)));
