/**
 * The answers a step had the model write, labelled, for the card to show as written: a learner checks the
 * reveal's "moves south, into a wall" against the model's own words, on a phone too, where the page's copy of
 * them sits under the card. Plain functions.
 */
import { parsePolicy, policyLabel } from '../../context/policy';
import { listWrong } from './moves';
import type { LessonStep, LessonWorld } from './world';

export interface Written {
  label: string;
  text: string;
}

/** What the step's own action wrote (nothing before it is done, nothing for a step without one). */
export function writtenIn(s: LessonStep, w: LessonWorld): Written[] {
  switch (s.act?.run) {
    case 'full-then-de':
      // With no earlier turn the model cannot know the cells it visited: said beside the list, not left a puzzle.
      return Object.entries(w.generated).map(([p, text]) => ({
        label: p === 'de' ? 'DE (no earlier turn, so no list of cells to copy: its list is a guess)' : policyLabel(parsePolicy(p)),
        text,
      }));
    case 'twin-writes':
      return w.generated.full === undefined || w.generatedB.full === undefined
        ? []
        : [
            { label: 'Demo model', text: w.generated.full },
            { label: 'CPL twin', text: w.generatedB.full },
          ];
    case 'heads-off': {
      const a = w.offAnswers;
      if (!a) return [];
      // A list of cells that comes out other than with every head on is named beside it: a reader took the run for a
      // broken model the card said nothing of.
      const wrong = (x: string) => (listWrong(x, a.withAll) ? '; its list of cells comes out different: the model, missing parts, not the page' : '');
      return [
        { label: 'Every head on', text: a.withAll },
        { label: `${a.off.join(', ')} off (most copying: highest diagonal ratio${wrong(a.withOff)})`, text: a.withOff },
        ...(a.control ? [{ label: `${a.control.off.join(', ')} off (lowest${wrong(a.control.withOff)})`, text: a.control.withOff }] : []),
      ];
    }
    default:
      return [];
  }
}
