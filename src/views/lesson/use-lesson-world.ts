import { headLabel } from '../../analysis/ablation';
import { splitTurns } from '../../conversation/turns';
import { focusOf } from '../../state/hover-lock';
import { useHover } from '../../state/hover-store';
import { activePolicies, useInspector } from '../../state/inspector-store';
import { useLesson } from '../../state/lesson-store';
import { useModelStore } from '../../state/model-store';
import { longestStreak, towardGoal, wallsIn } from './moves';
import { mazeTrail } from './maze';
import type { LessonWorld } from './world';

/** No answers written yet (one object, so the selector's result is stable). */
const NONE: Record<string, string> = {};

/** The snapshot of the page the steps read (world.ts). */
export function useLessonWorld(): LessonWorld {
  const results = useInspector((s) => s.results);
  // The model's figures of the conversation on screen (not of the one before an example was picked).
  const fromModel = useInspector((s) => s.resultsFrom === 'model' && s.resultsText === s.text);
  const fromCache = useInspector((s) => s.resultsFrom === 'cache' && s.resultsText === s.text);
  const policies = useInspector((s) => s.policies);
  const compare = useInspector((s) => s.compare);
  const compareModels = useInspector((s) => s.compareModels);
  const turn = useInspector((s) => s.turn);
  const parsed = useInspector((s) => s.parsed);
  const radius = useInspector((s) => s.radius);
  const exampleName = useInspector((s) => s.exampleName);
  // The lesson reads the first model's answers.
  const generated = useInspector((s) => s.generated[0] ?? NONE);
  const generatedB = useInspector((s) => s.generated[1] ?? NONE);
  const offHeads = useInspector((s) => s.off);
  const offAnswers = useInspector((s) => s.offAnswers);
  const pointed = useHover((s) => focusOf(s.hover));
  const guesses = useLesson((s) => s.guesses);
  const answers = useLesson((s) => s.answers);
  const sweepStates = useInspector((s) => s.sweeps);
  const head = useInspector((s) => s.head);
  const finalLayer = useModelStore((m) => m.info?.inspectLayers.at(-1) ?? null);
  const sweeping = useInspector((s) => s.sweeping !== null);
  const messages = parsed.conversation?.messages ?? [];
  // Each turn's answer and the user message it replies to (its last one): the maze's walls, moves and streak.
  const texts = (parsed.conversation ? splitTurns(messages).all : []).map((t) => ({
    answer: messages[t.assistant]!.content,
    asked: t.users.length ? messages[t.users.at(-1)!]!.content : null,
  }));
  const turns = texts.length;
  const asked = texts[(turn ?? turns) - 1]?.asked;
  const walls = asked == null ? null : wallsIn(asked);
  const toGoal = asked == null ? null : towardGoal(asked);
  // The answer before the scored one: what the heads step counts the copy against.
  const previousAnswer = texts[(turn ?? turns) - 2]?.answer ?? null;
  const streak = longestStreak(texts);
  const system = messages.find((m) => m.role === 'system')?.content ?? null;
  const maze = mazeTrail(
    system,
    texts.slice(0, turn ?? turns).flatMap((t) => (t.asked === null ? [] : [t.asked])),
    texts.slice(0, turn ?? turns).flatMap((t) => (t.asked === null ? [] : [t.answer])),
  );
  return {
    results,
    fromModel,
    fromCache,
    shown: activePolicies({ policies, compare, compareModels }),
    compareModels,
    turn,
    turns,
    radius,
    pointed,
    exampleName,
    walls,
    toGoal,
    previousAnswer,
    streak,
    maze,
    generated,
    generatedB,
    off: offHeads.map(headLabel),
    offAnswers: offAnswers && {
      withAll: offAnswers.withAll,
      withOff: offAnswers.withOff,
      off: offAnswers.off.map(headLabel),
      ...(offAnswers.control && { control: { off: offAnswers.control.off.map(headLabel), withOff: offAnswers.control.withOff } }),
    },
    guesses,
    answers,
    head: head === 'mean' ? null : head,
    finalLayer,
    sweeps: sweepStates.map((x) => x?.points ?? null),
    sweeping,
  };
}
