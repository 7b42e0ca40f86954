/**
 * What the demo model must show (issue 4), measured with the analysis pipeline itself on the
 * committed model. Shared by `npm run figures` (prints) and tests/model/demo-model.test.ts (asserts).
 */
import { readFileSync } from 'node:fs';
import { analyzePolicy, type AnalysisModel } from '../src/analysis/analyze';
import { turnsSweep } from '../src/analysis/sweep';
import { greedyGenerate } from '../src/analysis/generate';
import { parseConversation } from '../src/conversation/parse';
import type { Conversation, Message } from '../src/conversation/types';
import { slope, spearman } from '../src/metrics/stats';
import { conversation, mazeEpisode, MAZE_SYSTEM, MATH_SYSTEM, rng } from './data';

export const DEMO_DIR = 'models/inertia-demo';
export const MAZE_EXAMPLE = 'examples/maze.json';

const FORMATS: [string, RegExp][] = [
  [MAZE_SYSTEM, /^(Visited|Path|Cells so far|Been at):( \d+)+\.\nThought: [^\n]+\.\n(Action: |Move: |Next move: |Action -> )(north|south|east|west|stay)$/],
  [MATH_SYSTEM, /^((So far|Running total|Now): [^\n]+\.|(Answer|Final answer|Result): \d+ \w+\.)$/],
  ['', /^[^\n]+\.$/], // chat: one sentence
];

export interface ContinuationResult {
  total: number;
  wellFormed: number;
  exact: number;
  samples: { expected: string; got: string; ok: boolean }[];
}

/** Greedy continuation of held-out conversations (seeds the training never used), cut at a random turn. */
export async function heldOutContinuations(model: AnalysisModel, n = 24): Promise<ContinuationResult> {
  const tok = model.tokenizer;
  const stop = [tok.idOf('<|im_end|>')!];
  const out: ContinuationResult = { total: n, wellFormed: 0, exact: 0, samples: [] };
  for (let i = 0; i < n; i++) {
    const r = rng(777_000 + i);
    const msgs: Message[] = conversation(r);
    const answers = msgs.map((m, k) => (m.role === 'assistant' ? k : -1)).filter((k) => k > 0);
    // A summary task has one answer; the others are cut after their first.
    const cut = answers.length === 1 ? answers[0]! : answers[1 + Math.floor(r() * (answers.length - 1))]!;
    const prompt = tok.encode(tok.render(msgs.slice(0, cut), true));
    const got = tok.decode(await greedyGenerate(model.session, prompt, { maxTokens: 48, stopIds: stop }), true);
    const format = FORMATS.find(([sys]) => msgs[0]!.content === sys || sys === '')![1];
    const ok = format.test(got);
    out.wellFormed += ok ? 1 : 0;
    out.exact += got === msgs[cut]!.content ? 1 : 0;
    if (out.samples.length < 4) out.samples.push({ expected: msgs[cut]!.content, got, ok });
  }
  return out;
}

export function mazeExample(): Conversation {
  const parsed = parseConversation(readFileSync(MAZE_EXAMPLE, 'utf8'));
  if (!parsed.conversation) throw new Error(`${MAZE_EXAMPLE} is not a valid conversation`);
  return parsed.conversation;
}

export interface InertiaFigures {
  /** Last answer of the maze example: diagonal ratio under full and under filler. */
  diagonalFull: number;
  diagonalFiller: number;
  /** Sweep under full: turns, prior and user shares, their Spearman ρ with the turn and their slopes. */
  turns: number[];
  prior: number[];
  user: number[];
  priorSpearman: number;
  priorSlope: number;
  userSlope: number;
  /** Mean diagonal over the sweep's turns under each policy. */
  meanDiagonal: Record<string, number>;
}

export async function inertiaFigures(model: AnalysisModel, clips = ['clip:12:1', 'clip:6:1']): Promise<InertiaFigures> {
  const conv = mazeExample();
  const full = await analyzePolicy(model, conv, 'full');
  const filler = await analyzePolicy(model, conv, 'filler');
  const sweep = await turnsSweep(model, conv, 'full');
  const turns = sweep.map((p) => p.turn);
  const prior = sweep.map((p) => p.ratios.prior);
  const user = sweep.map((p) => p.ratios.user);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanDiagonal: Record<string, number> = { full: mean(sweep.map((p) => p.diagonal)) };
  for (const c of clips) meanDiagonal[c] = mean((await turnsSweep(model, conv, c)).map((p) => p.diagonal));
  return {
    diagonalFull: full.diagonal,
    diagonalFiller: filler.diagonal,
    turns,
    prior,
    user,
    priorSpearman: spearman(turns, prior),
    priorSlope: slope(turns, prior),
    userSlope: slope(turns, user),
    meanDiagonal,
  };
}

/**
 * The first n maze episodes from seed 990,000 on with 10 turns or more: ones the training never saw.
 * Seeds from 980,000 on are the validation episodes that choose a training snapshot (training/pick.ts),
 * so that the held-out figures are not the ones the choice was made on.
 */
export const HELD_OUT_SEED = 990_000;
export const VALIDATION_SEED = 980_000;
export function heldOutEpisodes(n: number, from = HELD_OUT_SEED): { seed: number; turns: number; conv: Conversation }[] {
  const out: { seed: number; turns: number; conv: Conversation }[] = [];
  for (let seed = from; out.length < n; seed++) {
    const messages = mazeEpisode(rng(seed), 14);
    const turns = messages.filter((m) => m.role === 'assistant').length;
    if (turns >= 10) out.push({ seed, turns, conv: parseConversation(JSON.stringify({ messages })).conversation! });
  }
  return out;
}

export interface EpisodeFigures {
  seed: number;
  turns: number;
  /** Diagonal ratio of the last answer, full ÷ filler. */
  fillerRatio: number;
  /** Spearman ρ of the prior-assistant share against the turn, full, over the sweep over turns. */
  priorSpearman: number;
}

/**
 * The same two figures on maze episodes the training never saw (seeds 990,000 + k), so that what the
 * example shows can be told apart from what this one conversation happens to show.
 */
export async function heldOutEpisodeFigures(model: AnalysisModel, n = 8, from = HELD_OUT_SEED): Promise<EpisodeFigures[]> {
  const out: EpisodeFigures[] = [];
  for (const { seed, turns, conv } of heldOutEpisodes(n, from)) {
    const full = await analyzePolicy(model, conv, 'full');
    const filler = await analyzePolicy(model, conv, 'filler');
    const sweep = await turnsSweep(model, conv, 'full');
    out.push({
      seed,
      turns,
      fillerRatio: full.diagonal / filler.diagonal,
      priorSpearman: spearman(
        sweep.map((p) => p.turn),
        sweep.map((p) => p.ratios.prior),
      ),
    });
  }
  return out;
}
