/**
 * Context Preference Learning, step 1 (paper 2 §2.1): preference pairs from the demo model's own greedy
 * answers, with no reward. On maze states it never trained on (seeds 500,000 + k), the model answers
 * twice each turn: with the whole history (long context, "Full") and with only the last WINDOW turns
 * (short context, Window-WINDOW). The long answer's action is what the environment executes, so both
 * histories follow the long-context trajectory. A pair is kept when the turn has at least K turns of
 * history beyond the short context (the minimum context gap) and the two actions differ.
 *
 *   npx tsx training/cpl-pairs.ts        → training/out/cpl-pairs.json (token ids, read by training/cpl.py)
 *   CPL_WINDOW=0 CPL_PAIRS=training/out/cpl-de-pairs.json npx tsx training/cpl-pairs.ts   → the second twin's pairs:
 *     the short context is no earlier turn at all (DE)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirSource } from '../src/cli/dir-source';
import type { AnalysisModel } from '../src/analysis/analyze';
import { greedyGenerate } from '../src/analysis/generate';
import type { Message } from '../src/conversation/types';
import { openModel } from '../src/runtime/open-model';
import { MAZE_SYSTEM, mazeMove, mazeObservation, mazeWorld, rng } from './data';
import { DEMO_DIR } from './figures';

export const WINDOW = Number(process.env.CPL_WINDOW ?? 1);
export const K = 3;
const TURNS = 16;
const EPISODES = Number(process.env.CPL_EPISODES ?? 400);
const FIRST_SEED = 500_000;

/** The action an answer ends with (its last word), or null when it has none. */
export function actionOf(answer: string): string | null {
  const m = /(north|south|east|west|stay)\s*$/.exec(answer);
  return m ? m[1]! : null;
}

/** The short context of turn t: the system prompt, the last `window` turns, the current user turn. */
export function windowContext(history: Message[], window: number): Message[] {
  const [system, ...rest] = history;
  return [system!, ...rest.slice(Math.max(0, rest.length - 1 - 2 * window))];
}

/** The model's greedy answer to the messages: its prompt ids, its ids with the end of turn, its text. */
export async function greedyAnswer(model: AnalysisModel, messages: Message[]): Promise<{ prompt: number[]; ids: number[]; text: string }> {
  const tok = model.tokenizer;
  const end = tok.idOf('<|im_end|>')!;
  const prompt = tok.encode(tok.render(messages, true));
  const ids = await greedyGenerate(model.session, prompt, { maxTokens: 96, stopIds: [end] });
  return { prompt, ids: [...ids, end], text: tok.decode(ids, true) };
}

/**
 * Where an answer's decision starts: the index of the token that ends its first line (the list of
 * cells, copied from the previous answer). cpl.py can score the thought and the action from there on.
 */
export function decisionStart(pieces: readonly string[]): number {
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    text += pieces[i];
    if (text.includes('\n')) return i;
  }
  return 0;
}

async function main() {
  const model = await openModel(dirSource(DEMO_DIR));
  const answer = (messages: Message[]) => greedyAnswer(model, messages);
  const pairs: {
    seed: number;
    turn: number;
    prompt: number[];
    chosen: number[];
    rejected: number[];
    chosenFrom: number;
    rejectedFrom: number;
    chosenAction: string | null;
    rejectedAction: string | null;
  }[] = [];
  const from = (ids: number[]) => decisionStart(model.tokenizer.pieces(ids));
  let turns = 0;
  let considered = 0;
  let sameAction = 0;
  const t0 = Date.now();
  for (let k = 0; k < EPISODES; k++) {
    const seed = FIRST_SEED + k;
    let world = mazeWorld(rng(seed));
    let bumped = false;
    const history: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
    for (let t = 1; t <= TURNS; t++) {
      history.push({ role: 'user', content: mazeObservation(world, t, bumped) });
      turns++;
      const long = await answer(history);
      // Turn t sees t − 1 earlier turns in full; the short context keeps WINDOW of them.
      if (t - 1 - WINDOW >= K) {
        considered++;
        const shortContext = windowContext(history, WINDOW);
        const short = await answer(shortContext);
        const [a, b] = [actionOf(short.text), actionOf(long.text)];
        if (a === b) sameAction++;
        else
          pairs.push({
            seed,
            turn: t,
            prompt: short.prompt,
            chosen: short.ids,
            rejected: long.ids,
            chosenFrom: from(short.ids),
            rejectedFrom: from(long.ids),
            chosenAction: a,
            rejectedAction: b,
          });
      }
      history.push({ role: 'assistant', content: long.text });
      const act = actionOf(long.text);
      if (act === null || act === 'stay' || (world.x === world.gx && world.y === world.gy)) break;
      ({ world, bumped } = mazeMove(world, act));
    }
    if ((k + 1) % 50 === 0)
      console.log(`${k + 1} episodes, ${turns} turns, ${considered} candidate turns, ${pairs.length} pairs kept, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  await model.session.release();
  mkdirSync('training/out', { recursive: true });
  const summary = {
    episodes: EPISODES,
    firstSeed: FIRST_SEED,
    window: WINDOW,
    K,
    turns,
    candidates: considered,
    droppedSameAction: sameAction,
    kept: pairs.length,
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  writeFileSync(process.env.CPL_PAIRS ?? 'training/out/cpl-pairs.json', JSON.stringify({ summary, pairs }));
  console.log(JSON.stringify(summary));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
