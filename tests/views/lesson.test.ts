import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { lessonFragment, parseHide } from '../../src/state/regions';
import { LESSON, QUIZ, SHIFTED, SHIFTED_TITLE, type LessonWorld } from '../../src/views/lesson/steps';
import { EXAMPLES } from '../../src/state/examples';

/** Figures as the page holds them, only the fields the steps read (the browser test reads real ones). */
const figures = (policy: string, diagonal: number, prior: number, extra: Partial<PolicyResult> = {}): PolicyResult =>
  ({
    policy,
    label: policy,
    turn: 14,
    diagonal,
    diagonalCopyAligned: diagonal + 0.01,
    ratios: { sink: 0.5123, system: 0.0456, user: 0.1789, prior, current: 0.1 },
    cost: [{ turn: 14, contextTokens: 236, prefilled: 40 }],
    messages: [{ role: 'assistant', content: 'Move: east' }],
    ...extra,
  }) as unknown as PolicyResult;

const start: LessonWorld = {
  results: [figures('full', 0.1133, 0.2991)],
  fromModel: true,
  fromCache: false,
  shown: ['full'],
  compareModels: false,
  turn: null,
  turns: 14,
  radius: 5,
  pointed: null,
  exampleName: 'maze',
  generated: {},
  guesses: {},
  answers: {},
};
const step = (id: string) => LESSON.find((s) => s.id === id)!;
const sentences = (t: string) => t.split(/(?<=[.!?])\s+(?=[A-Z"(])/).filter(Boolean).length;

describe('the lesson', () => {
  it('has 8–12 steps, each at most three sentences, one action and a region', () => {
    expect(LESSON.length).toBeGreaterThanOrEqual(8);
    expect(LESSON.length).toBeLessThanOrEqual(12);
    for (const s of LESSON) {
      expect(sentences(s.text(start)), s.id).toBeLessThanOrEqual(3);
      expect(s.action.length, s.id).toBeGreaterThan(0);
      expect(s.region, s.id).toBeTruthy();
    }
    expect(new Set(LESSON.map((s) => s.id)).size).toBe(LESSON.length);
  });

  it('gates each step on its action: not done before it, done after', () => {
    const cases: [string, Partial<LessonWorld>][] = [
      ['reads', { pointed: { row: 2, col: 40 } }],
      ['sink', { pointed: { row: 2, col: 1 } }],
      ['shares', { guesses: { prior: 0.3 } }],
      ['diagonal', { guesses: { diagonal: 0.05 } }],
      ['filler', { shown: ['filler'], results: [figures('filler', 0.046, 0.2)] }],
      ['turns', { turn: 6, results: [figures('full', 0.08, 0.25, { turn: 6 })] }],
      ['policies', { shown: ['clip:12:1'], results: [figures('clip:12:1', 0.09, 0.1)] }],
      ['generate', { generated: { full: 'Path: 8 9.' } }],
      ['cpl', { compareModels: true, results: [figures('full', 0.1133, 0.2991), figures('full', 0.08, 0.29, { slot: 1 })] }],
      ['shifted', { exampleName: SHIFTED }],
      ['check', { answers: Object.fromEntries(QUIZ.map((q, i) => [i, q.correct])) }],
    ];
    for (const [id, change] of cases) {
      expect(step(id).done(start), `${id} before`).toBe(false);
      expect(step(id).done({ ...start, ...change }), `${id} after`).toBe(true);
    }
    // The sink step wants the sink's columns, not any cell.
    expect(step('sink').done({ ...start, pointed: { row: 2, col: 3 } })).toBe(false);
    // A wrong quiz answer does not pass.
    expect(step('check').done({ ...start, answers: { 0: 0, 1: 0, 2: 1 } })).toBe(false);
    // The cached start figures are not the model's: a step that needs figures waits for them.
    expect(step('policies').done({ ...start, fromModel: false, shown: ['clip:12:1'], results: [figures('clip:12:1', 0.09, 0.1)] })).toBe(false);
    // While the model loads, the example's stored figures serve the steps that read Full at the last turn.
    const cached = { ...start, fromModel: false, fromCache: true, guesses: { prior: 0.3 } };
    expect(step('shares').reveal!(cached)).toContain('0.2991');
    expect(step('shares').reveal!({ ...cached, fromCache: false })).toMatch(/still loading/);
  });

  it('fills its numbers from the figures, written as the figures panel writes them', () => {
    const w = { ...start, guesses: { prior: 0.3, diagonal: 0.05 } };
    expect(step('sink').reveal!(w)).toContain('0.5123');
    expect(step('shares').reveal!(w)).toMatch(/0\.2991.*0\.1789.*0\.0456.*30 %/);
    expect(step('diagonal').reveal!(w)).toMatch(/0\.1133.*0\.2991.*5 %/);
    expect(step('diagonal').text({ ...w, radius: 8 })).toContain('r = 8');
    const clip = { ...w, shown: ['clip:12:1'], results: [figures('clip:12:1', 0.0917, 0.1)] };
    expect(step('policies').reveal!(clip)).toMatch(/236 tokens.*0\.0917/);
    const cpl = { ...w, compareModels: true, results: [figures('full', 0.1133, 0.2991), figures('full', 0.0824, 0.2876, { slot: 1 })] };
    expect(step('cpl').reveal!(cpl)).toMatch(
      /0\.1133.*0\.0824 for its CPL twin \(27 % lower\).*0\.2991.*0\.2876 \(4 % lower\): the diagonal falls more than the share/,
    );
    const wrote = {
      ...cpl,
      results: [
        figures('full', 0.0811, 0.3291, { messages: [{ role: 'assistant', content: 'Move: west', generated: true }] } as unknown as Partial<PolicyResult>),
        cpl.results[1]!,
      ],
    };
    expect(step('cpl').reveal!(wrote)).toMatch(
      /^The demo model's figures score the answer it wrote, its twin's the conversation's answer: two different texts\. Click "use the file's answer"/,
    );
    expect(step('cpl').reveal!(wrote)).not.toMatch(/\d\.\d{4}/);
    const notLower = { ...cpl, results: [figures('clip:12:1', 0.1334, 0.3899), figures('clip:12:1', 0.1447, 0.2985, { slot: 1 })] };
    expect(step('cpl').reveal!(notLower)).toMatch(/\(8 % higher\).*the twin leans on the copy no less than the base/);
    const shifted = {
      ...w,
      exampleName: SHIFTED,
      results: [
        figures('full', 0.1479, 0.6119, {
          copy: [
            { message: 24, turn: 12, longestRun: 14, ngramOverlap: 0.5, shift: -14 },
            { message: 26, turn: 13, longestRun: 15, ngramOverlap: 0.6, shift: -14 },
          ],
        }),
      ],
    };
    expect(step('shifted').reveal!(shifted)).toMatch(
      /15 tokens of turn 13's answer, sits 14 tokens later in this answer than in turn 13's.*Under full.*0\.1479.*0\.1579: the attention follows the copy/,
    );
    const apart = { ...shifted, results: [{ ...shifted.results[0]!, diagonalCopyAligned: 0.047 }] };
    expect(step('shifted').reveal!(apart)).toMatch(/0\.0470: the attention stays nearer paper 2's alignment/);
    const one = { ...w, generated: { 'clip:12:1': 'Path: 8 9.\nThought: go.\nMove: west' } };
    expect(step('generate').reveal!(one)).toMatch(/^Under Clip-12→1 the model wrote: "Path: 8 9\.\nThought: go\.\nMove: west"\. Click another policy/);
    const two = { ...w, generated: { ...one.generated, 'window:1': 'Path: 8.\nThought: up.\nMove: north' } };
    expect(step('generate').reveal!(two)).toMatch(/Under Window-1: [\s\S]*: a different answer and a different move\.$/);
    const sameMove = { ...w, generated: { ...one.generated, full: 'Path: 8 9 10.\nThought: go.\nMove: west' } };
    expect(step('generate').reveal!(sameMove)).toMatch(/a different answer, the same move \(west\)\.$/);
    // The example it names is one the page offers.
    expect(EXAMPLES.find((e) => e.name === SHIFTED)?.title).toContain(SHIFTED_TITLE);
  });

  it("reads a teacher's hide= and writes lesson= and hide= back", () => {
    expect(parseHide('policies, heatmap,policies')).toEqual({ hidden: ['policies', 'heatmap'], problems: [] });
    expect(parseHide('figures,<script>').problems).toEqual([
      'hide=<script> is not one of model, conversation, policies, compare-models, view, figures, heatmap, tokens, charts, heads, forward',
    ]);
    // Links from before the panel compared up to four models named it model-b.
    expect(parseHide('model-b').hidden).toEqual(['compare-models']);
    expect(lessonFragment(3, ['policies', 'view'])).toBe('lesson=4&hide=policies,view');
    expect(lessonFragment(null, [])).toBe('');
  });
});
