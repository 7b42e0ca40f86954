import { TAUGHT } from '../../src/views/lesson/moves';
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { lessonFragment, parseHide } from '../../src/state/regions';
import { setupLine } from '../../src/state/lesson-setup';
import { quizScore } from '../../src/views/lesson/quiz';
import { LESSON, QUIZ, type LessonWorld, revealText } from '../../src/views/lesson/steps';
import { copiedAlike, longestStreak, wallsIn } from '../../src/views/lesson/moves';
import { guessesAhead, maskedBy } from '../../src/views/lesson/ahead';
import { cellNumber, mazeTrail } from '../../src/views/lesson/maze';
import { writtenIn } from '../../src/views/lesson/written';
import { headsOffReveal, towardGoal } from '../../src/views/lesson/moves';
import { numbersOf, questionOf, sentencesOf, WORDS } from '../../src/views/lesson/world';
import { partOf, STEP_IDS, stepNo } from '../../src/views/lesson/order';
import { clipWorked, evenDiagonal, evenShare, percent, readAgainstFull } from '../../src/views/lesson/world';
import { turnByTurn } from '../../src/views/lesson/cpl';
import { brighterMarker, brightestColumn, diagonalByLines, bandLine, priorYardstick, tokenReading } from '../../src/views/lesson/attention-reveals';
import { stripeCell, stripeSaid } from '../../src/views/lesson/heatmap-reveal';
import { copiersSaid } from '../../src/views/lesson/head-reveal';
import { bandStripes, bandWorked, linePhrase, perToken, stripesPhrase } from '../../src/views/lesson/band-reveals';
import { ordinal } from '../../src/util/ordinal';
import { whereToken } from '../../src/views/lesson/token-where';
import { slab } from '../../src/metrics/slab';
import { twinTally } from '../../src/views/lesson/twin-tally';
import { wallTally } from '../../src/views/lesson/wall-counts';
import type { SweepPoint } from '../../src/analysis/sweep';

/** Figures as the page holds them, only the fields the steps read (the browser test reads real ones). */
/** A message of a hand-made analysis: its role, kind, turn and token span. */
const msg = (role: string, category: string, turn: number | null, start: number, length: number) => ({ role, category, turn, span: { start, length } });
/** A system prompt, then two turns (the second answer the current one), of these lengths in tokens, one after another. */
const twoTurns = (lengths: number[]) => {
  const kinds: [string, string, number | null][] = [
    ['system', 'system', null],
    ['user', 'user', 1],
    ['assistant', 'prior', 1],
    ['user', 'user', 2],
    ['assistant', 'current', 2],
  ];
  let start = 0;
  return kinds.map(([role, category, turn], i) => {
    const m = msg(role, category, turn, start, lengths[i]!);
    start += lengths[i]!;
    return m;
  });
};
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
    copy: [],
    query: { start: 800, end: 831 },
    diagonalPerAnswer: [],
    tokens: [],
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
  walls: ['south'],
  previousAnswer: 'Path: 8 9 10.\nMove: south',
  streak: null,
  generated: {},
  generatedB: {},
  off: [],
  offAnswers: null,
  guesses: {},
  answers: {},
  head: null,
  finalLayer: 1,
  sweeps: [],
  sweeping: false,
};
const step = (id: string) => LESSON.find((s) => s.id === id)!;
/** A step's reveal as one text: what it says, then the figures behind it. */
const told = (id: string, w: LessonWorld, base: LessonWorld | null): string => revealText(step(id).reveal!(w, base));
/** One turn of a sweep, only the fields the steps read. */
const pt = (turn: number, diagonal: number, prior: number): SweepPoint =>
  ({ turn, diagonal, ratios: { sink: 0, system: 0, user: 0, prior, current: 0 }, tokens: 0, contextTokens: 0, prefilled: 0 }) as SweepPoint;
const sentences = (t: string) => sentencesOf(t).length;
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
/** What a newcomer stops at: a paper's section, figure or table, or a symbol the text does not define. */
const PAPER_TALK = /paper \d|§|\bfig(ure)?\.? ?\d|\btable \d|C_t|\bsection\b|\bappendix\b/i;

describe('the lesson', () => {
  // 16 at most: a teacher asked for the band and its control, and the mazes played through, each on a card of its own.
  it('has 10–16 steps, each of short sentences in plain words, one action, a target, a setup and a source', () => {
    expect(LESSON.length).toBeGreaterThanOrEqual(10);
    expect(LESSON.length).toBeLessThanOrEqual(16);
    const done = { ...start, guesses: { prior: 0.3, diagonal: 2, filler: 0 }, generated: { full: 'Move: east' } };
    for (const s of LESSON) {
      // Short sentences, not ideas chained by colons: at most five, none longer than a line or two.
      const full = s.text({ ...start, streak: { from: 2, to: 10, move: 'south', wallFrom: 5 } });
      expect(sentences(full), s.id).toBeLessThanOrEqual(WORDS.sentences);
      for (const one of sentencesOf(full)) expect(words(one), `${s.id}: ${one}`).toBeLessThanOrEqual(WORDS.sentence);
      // Short, so a step is read, not skimmed: the card's text and what its reveal says (the browser walk checks the real ones).
      expect(words(s.text({ ...start, streak: { from: 2, to: 10, move: 'south', wallFrom: 5 } })), s.id).toBeLessThanOrEqual(WORDS.text);
      // What the card shows of a reveal is at most three sentences too; the figures behind it are folded.
      if (s.reveal) expect(sentences(s.reveal(done, done).said), `${s.id} reveal`).toBeLessThanOrEqual(WORDS.saidSentences);
      if (s.reveal) expect(words(s.reveal(done, done).said), `${s.id} reveal`).toBeLessThanOrEqual(WORDS.said);
      // The takeaway above it: one sentence, a line or two.
      const takeaway = s.reveal?.(done, done).takeaway ?? '';
      expect(sentences(takeaway), `${s.id} takeaway`).toBeLessThanOrEqual(1);
      expect(words(takeaway), `${s.id} takeaway`).toBeLessThanOrEqual(WORDS.takeaway);
      // A plain claim, not ideas chained by colons and semicolons.
      expect(takeaway, `${s.id} takeaway`).not.toMatch(/[:;]/);
      // A few figures shown, the rest folded (the browser walk counts the real ones).
      if (s.reveal) expect(numbersOf(`${takeaway} ${s.reveal(done, done).said}`).length, `${s.id} numbers`).toBeLessThanOrEqual(WORDS.numbers);
      expect(s.action.length, s.id).toBeGreaterThan(0);
      expect(s.target, s.id).toBeTruthy();
      expect(s.source, s.id).toMatch(/paper|tool|Xiao|definitions/);
      for (const text of [
        s.title,
        s.text(start),
        s.action,
        s.reveal ? revealText(s.reveal(done, done)) : '',
        ...(s.quiz ?? []).flatMap((q) => [q.question, q.why, ...q.options]),
      ]) {
        expect(text, `${s.id}: ${text}`).not.toMatch(PAPER_TALK);
        // A placeholder left in a plain string would reach the card as written.
        expect(text, `${s.id}: ${text}`).not.toContain('${');
      }
      expect(setupLine(s.setup), s.id).toMatch(/^This step starts from: (Maze episode|Maze, last answer reordered|Maze, stuck at a wall) · /);
    }
    // In the order the texts' step numbers count by ("the repeats counted in step 2").
    expect(LESSON.map((s) => s.id)).toEqual([...STEP_IDS]);
    // Every question points back at a step that exists.
    for (const q of QUIZ)
      expect(
        LESSON.some((s) => s.id === q.revisit),
        q.revisit,
      ).toBe(true);
  });

  it("gives the diagonal's chance before its guess, and works it out in round numbers in the fold: the band's cells against the tokens a row sees (hand-computed)", () => {
    // Two answer rows after 10 tokens, one prior answer of 3 tokens, r = 1: the band has 2 cells in the first row
    // (its offsets 0 and 1), 3 in the second; the rows see 11 and 12 tokens. Chance: (2/11 + 3/12) / 2 = 21.6 %.
    const r = figures('full', 0.3, 0.5, {
      radius: 1,
      query: { start: 10, end: 12 },
      diagonalPerAnswer: [{ message: 0, turn: 1, value: 0.3 }],
      messages: [{ content: { start: 2, length: 3 } }],
    } as unknown as Partial<PolicyResult>);
    expect(bandWorked(r)).toBe(
      "The even share worked out: a row's band holds up to 3 tokens of each prior assistant answer, fewer where an answer is short or the row is near its start, 3 in all on average, of the 12 tokens a row sees (those before the answer, and the answer's own so far: a later row sees more).",
    );
    expect(step('diagonal').text({ ...start, radius: 1, results: [r] })).toMatch(
      /^The diagonal ratio adds up the answer's attention inside the pink band, over all 1 prior assistant answers\. The band reaches 1 tokens either side of the dotted line, where copies in order \(step \d+'s slanted line\) fall; a copy shifted further off is missed\. An even share, looking at every token equally, would put 22 % there\. Does the band get more\?$/,
    );
  });

  it("finds a step's question for the card's top to say again, and none in a step that asks none", () => {
    expect(questionOf('Rows are tokens. Does the band get more, as much, or less? Chance is 13 %.')).toBe('Does the band get more, as much, or less?');
    expect(questionOf(step('shares').text(start))).toBe('How much goes to its prior assistant answers?');
    // With the figures in, the question asks whether it leans on them beyond their share of the tokens.
    expect(questionOf('They are 42 % of those tokens: does it lean on them, giving them more? Guess how much they get.')).toBe(
      'They are 42 % of those tokens: does it lean on them, giving them more?',
    );
    expect(questionOf(step('recap').text(start))).toBeNull();
  });

  it('names the part each step is in, from the first step of each part', () => {
    expect(partOf(stepNo('case') - 1)).toEqual({ n: 1, of: 3, title: 'what the history does' });
    expect(partOf(stepNo('recap') - 1).n).toBe(1);
    expect(partOf(stepNo('shares') - 1)).toEqual({ n: 2, of: 3, title: 'inside the model' });
    expect(partOf(stepNo('inside') - 1).n).toBe(2);
    expect(partOf(stepNo('cpl') - 1).n).toBe(3);
    expect(partOf(stepNo('check') - 1).n).toBe(3);
  });

  it('gates each step on its action: not done before it, done after', () => {
    const cases: [string, Partial<LessonWorld>][] = [
      ['shares', { guesses: { prior: 0.3 } }],
      ['diagonal', { guesses: { diagonal: 2 } }],
      ['filler', { guesses: { filler: 0 } }],
      ['contexts', { shown: ['clip:6:1'], results: [figures('clip:6:1', 0.09, 0.1)] }],
      ['hide', { shown: ['ao'], results: [figures('ao', 0.0, 0.0)] }],
      ['hide-last', { shown: ['ao-last'], results: [figures('ao-last', 0.0, 0.0)] }],
      ['generate', { generated: { full: 'Path: 8 9.', lt: 'Path: 9.' } }],
      ['heads', { offAnswers: { withAll: 'Move: east', withOff: 'Move: west', off: ['1.2'], control: { off: ['0.1'], withOff: 'Move: east' } } }],
      ['cpl', { compareModels: true, generated: { full: 'Move: south' }, generatedB: { full: 'Move: north' } }],
      ['check', { answers: Object.fromEntries(QUIZ.map((q, i) => [i, q.correct])) }],
    ];
    for (const [id, change] of cases) {
      expect(step(id).done(start), `${id} before`).toBe(false);
      expect(step(id).done({ ...start, ...change }), `${id} after`).toBe(true);
    }
    // A wrong quiz answer does not pass.
    expect(step('check').done({ ...start, answers: { 0: 0, 1: 0, 2: 1, 3: 1 } })).toBe(false);
    // One answer is half the generation step: it compares two.
    expect(step('generate').done({ ...start, generated: { full: 'Path: 8 9.' } })).toBe(false);
    // The cached start figures are not the model's: a step that needs figures waits for them.
    expect(step('contexts').done({ ...start, fromModel: false, shown: ['clip:6:1'], results: [figures('clip:6:1', 0.09, 0.1)] })).toBe(false);
    // While the model loads, the example's stored figures serve the steps that read Full at the last turn.
    const cached = { ...start, fromModel: false, fromCache: true, guesses: { prior: 0.3 } };
    expect(told('shares', cached, null)).toContain('29.91\u00a0%');
    expect(told('shares', { ...cached, fromCache: false }, null)).toMatch(/still loading/);
  });

  it("fills its numbers from the figures; a guess and its figure in one unit; a change against the step's own start", () => {
    const w = { ...start, guesses: { prior: 0.3, diagonal: 2 } };
    // The sink, folded into the shares step: its share read against what large models do.
    expect(told('shares', w, w)).toMatch(/The sink takes 51 %, as in most large models: bright columns at the heatmap's left edge/);
    const weak = { ...w, results: [figures('full', 0.1133, 0.2991, { ratios: { ...start.results[0]!.ratios, sink: 0.004 } })] };
    expect(told('shares', weak, weak)).toMatch(/The sink takes under 1 %: this tiny model has almost no sink, unlike most large models/);
    // A share that rounds to 0 % but is not 0 says so, beside the panel's four decimals.
    expect([percent(0.0015), percent(0), percent(0.005), percent(0.5123)]).toEqual(['under 1 %', '0 %', '1 %', '51 %']);
    expect(told('shares', w, w)).toMatch(
      /^You guessed 30 %; they get 30 % of its attention\..* On the figures panel: prior assistant 29\.91\u00a0%\. Over the \d+ turns right after a wall, the answers give their prior assistant answers \d+ % of their attention on average \(even share \d+ %\), [\d.]+ times an even share: this answer [a-z ]+\. The five add up to 100 %: what one kind gets above its even share, the others give up\. The rest: 18 % to the user's turns, 5 % to the system prompt/,
    );
    expect(told('diagonal', w, w)).toMatch(
      /^You guessed more than an even share; the band gets 11 %.*On the figures panel: diagonal ratio 11\.33\u00a0%\. It is part of the 30 %/,
    );
    // The card's line quotes per cents only; the panel's figures are in the fold.
    for (const id of ['shares', 'diagonal']) expect(step(id).reveal!(w, w).said, id).not.toMatch(/\d\.\d{4}/);
    // The card shows at most three sentences; the rest is folded under "The figures behind this".
    expect(sentences(step('diagonal').reveal!(w, w).said)).toBeLessThanOrEqual(WORDS.saidSentences);
    expect(step('diagonal').text({ ...w, radius: 8 })).toContain('reaches 8 tokens either side of the dotted line');
    // Filler beside Full, its own step: its ratio and Full's on the card and the bars; here half or more of it stays.
    const beside = { ...w, shown: ['full', 'filler'], results: [figures('full', 0.1133, 0.2991), figures('filler', 0.0567, 0.2)] };
    expect(told('filler', beside, w)).toMatch(
      /^Much of the band stays without the words, so part of it follows where tokens sit\. The band gets 6 % with filler in the answers' place, against 11 % as written\..*On the figures panel: diagonal ratio 11\.33\u00a0%, diagonal ratio under Filler 5\.67\u00a0%\.$/,
    );
    // The diagonal step reads the band alone: Filler waits for its step.
    expect(told('diagonal', beside, w)).not.toMatch(/Filler|filler/);
    // Without Filler's figures (before they arrive) the step says what it has.
    expect(told('diagonal', w, w)).not.toContain('Filler');
    const clip = { ...w, shown: ['clip:6:1'], results: [figures('clip:6:1', 0.0917, 0.1, { cost: [{ turn: 14, contextTokens: 236, prefilled: 40 }] })] };
    const full = { ...w, results: [figures('full', 0.1133, 0.2991, { cost: [{ turn: 14, contextTokens: 1020, prefilled: 40 }] })] };
    // Before the attention figures are taught, a policy is read by its count at the wall and the tokens it leaves, not
    // by its diagonal; Clip keeps every turn early in an episode, and the card says at how many of the stored turns.
    expect(step('contexts').reveal!(clip, full).said).toMatch(
      /^At the wall it repeats the blocked move in \d+ % under clip:6:1 against \d+ % under Full: at \d+ of those turns clip:6:1 still keeps every turn(, so at the wall it changes little)?\. Under clip:6:1 the model reads 236 tokens before answering, against 1020 under Full\.$/,
    );
    expect(told('contexts', clip, full)).toContain(
      'Answering turn 14, Clip-6→1 shows turns 11 to 13: each time the history reached 6 turns it was cut back to the last 1, then grew again.',
    );
    // Under a policy the stored episodes were also written with: the count at the wall follows.
    const de = { ...w, shown: ['de'], results: [figures('de', 0, 0, { cost: [{ turn: 14, contextTokens: 81, prefilled: 40 }] })] };
    const priors = [{ message: 0, turn: 1, value: 0.1133 }];
    const fullWithPriors = {
      ...w,
      results: [figures('full', 0.1133, 0.2991, { cost: [{ turn: 14, contextTokens: 1020, prefilled: 40 }], diagonalPerAnswer: priors })],
    };
    expect(step('contexts').reveal!(de, fullWithPriors).said).toMatch(
      /^At the wall it repeats the blocked move in \d+ % under de against \d+ % under Full\. Under de the model reads 81 tokens before answering, against 1020 under Full\.$/,
    );
    // Only the policies that drop turns pass the first table step; AO is the second's.
    expect(step('contexts').done({ ...w, shown: ['ao'], results: [figures('ao', 0, 0)] })).toBe(false);
    const ao = { ...w, shown: ['ao'], results: [figures('ao', 0, 0.0012, { cost: [{ turn: 14, contextTokens: 743, prefilled: 40 }] })] };
    expect(told('hide', ao, full)).toMatch(
      /^At the walls Full hit, hiding its own answers \(AO\) .*\. Of the moves made, AO \(\d+ %\) .*\. Under ao the model reads 743 tokens.*\. Hidden answers sometimes leave no move .*: the bars leave those out and write their share beside each\.$/,
    );
    // Reading more than Full (AO's placeholders outgrow short answers): said why.
    const longer = { ...ao, results: [figures('ao', 0, 0.0012, { cost: [{ turn: 14, contextTokens: 1030, prefilled: 40 }] })] };
    // About as many: said so, and not "more" beside it.
    expect(told('hide', longer, full)).toContain(
      'Under ao the model reads about as many tokens before answering as under Full (1030 against 1020: AO also adds a note to the system prompt, telling the model its answers are shown as placeholders).',
    );
    expect(told('hide', longer, full)).not.toContain('It reads more');
    // Well more than Full: the figures, not "about as many".
    const muchLonger = { ...ao, results: [figures('ao', 0, 0.0012, { cost: [{ turn: 14, contextTokens: 1200, prefilled: 40 }] })] };
    expect(told('hide', muchLonger, full)).toContain('Under ao the model reads 1200 tokens before answering, against 1020 under Full. It reads more');
    expect(step('hide').reveal!(longer, full).more).toMatch(/^Under ao the model reads about as many tokens .*\. Hidden answers sometimes leave no move .*\.$/);
    expect(told('hide', ao, full)).not.toContain('adds a 35-word line');
    const sum = { ...muchLonger, shown: ['sum'], results: [{ ...muchLonger.results[0]!, policy: 'sum', label: 'SUM' }] };
    expect(readAgainstFull(sum.results[0]!, full)!.more).toBe('It reads more than under Full: what it puts in place of the answers is longer than they are.');
    // The twin at the wall (south named): each move told, then what the two say together.
    const cpl = { ...w, compareModels: true, generated: { full: 'Been at: 22.\nAction -> south' }, generatedB: { full: 'Been at: 22.\nAction -> north' } };
    expect(step('cpl').reveal!(cpl, w)).toEqual({
      takeaway: twinTally().takeaway,
      said: `${twinTally().said} On this one answer, the demo model moves south, into a wall; its CPL twin moves north, an open way.`,
      // The stored twin's gap could be luck, and its target (LT) repeats about as much as Full: said unfolded.
      caveat: 'its preferred answers saw only the turn before, which repeats nearly as much as Full (step 3), so little change was expected.',
      more: `Every turn is being scored with both models: their attention follows. So on this answer the twin avoids the wall the demo model walks into. ${twinTally().more}`,
      // The twin against the demo model on the luck meter, as the count gives it.
      luck: twinTally().luck,
      counts: twinTally().counts,
    });
    // Both models' figures of the conversation's last answer on the page: their attention side by side, the count folded.
    const both = { ...cpl, results: [figures('full', 0.19, 0.53), { ...figures('full', 0.18, 0.43), slot: 1 }] };
    expect(step('cpl').reveal!(both, w)).toEqual({
      takeaway: twinTally().takeaway,
      said: `${twinTally().said} On this one answer, the demo model moves south, into a wall; its CPL twin moves north, an open way.`,
      // The stored twin's gap could be luck, and its target (LT) repeats about as much as Full: said unfolded.
      caveat: 'its preferred answers saw only the turn before, which repeats nearly as much as Full (step 3), so little change was expected.',
      more: `Every turn is being scored with both models: their attention follows. On this answer the twin gives its prior assistant answers 43 % of its attention, the demo model 53 %. So on this answer the twin avoids the wall the demo model walks into. ${twinTally().more} Diagonal ratio 18 % against 19 %: both still copy the list of cells.`,
      luck: twinTally().luck,
      counts: twinTally().counts,
    });
    // The twin's share at chance (4 of 9, then 4 of 10 tokens: 42 %), while the stored count has it repeat more than
    // with no history: said to be no measure of the inertia.
    const cats = ['system', 'user', 'prior', 'prior', 'prior', 'prior', 'user', 'user', 'current', 'current'];
    const seen = { query: { start: 8, end: 10 }, tokens: cats.map((category) => ({ category, text: 'x' })) };
    const atChance = { ...cpl, results: [figures('full', 0.19, 0.53), { ...figures('full', 0.18, 0.43, seen as never), slot: 1 }] };
    expect(step('cpl').reveal!(atChance, w).more).toContain(
      'On this answer the twin gives its prior assistant answers 43 % of its attention (even share 42 %), the demo model 53 %: about its even share, while at the wall it still repeats the blocked move in 73 % of its moves, so a share of attention need not follow the inertia.',
    );
    // With the goal told (south, beyond the wall): the twin's way off the wall is not called playing better.
    expect(told('cpl', { ...cpl, toGoal: ['south'] }, w)).toContain(
      'So on this answer the twin avoids the wall the demo model walks into, though its move leads away from the goal.',
    );
    expect(told('cpl', { ...cpl, toGoal: ['north'] }, w)).toContain('its CPL twin moves north, an open way, toward the goal.');
    expect(told('cpl', { ...cpl, generatedB: { full: 'Action -> south' } }, w)).toContain('Both models make the same move here.');
    // A twin that stays is said to stay, not to move 'stay' an open way.
    expect(told('cpl', { ...cpl, generatedB: { full: 'Action -> stay' } }, w)).toMatch(
      /^The twin does not repeat clearly less at the wall\. .*. On this one answer, the demo model moves south, into a wall; its CPL twin stays where it is\. .*their attention follows\. Together: a different answer and a different move\./,
    );
    expect(told('cpl', { ...cpl, generatedB: {} }, w)).toBe('');
    expect(sentences(step('cpl').reveal!(cpl, w).said)).toBeLessThanOrEqual(WORDS.saidSentences);
    // Over the turns: the count of turns where the twin is lower, and what it says.
    const mine = [pt(2, 0.13, 0.29), pt(3, 0.17, 0.33), pt(4, 0.2, 0.41)];
    const lower = { ...cpl, sweeps: [mine, [pt(2, 0.11, 0.25), pt(3, 0.18, 0.3), pt(4, 0.18, 0.37)]] };
    expect(told('cpl', lower, w)).toMatch(
      /Their attention, turn by turn: the twin gives its prior assistant answers less attention at 3 of 3 turns and has the smaller diagonal ratio at 2 of 3: it leans less on them over the whole conversation. So on this answer the twin .* In these counts the twins and the demo model all read the whole history \(Full\)\./,
    );
    // Once both are scored, the card reads the chart's twin line, within the card's limits.
    const scored = step('cpl').reveal!(lower, w);
    // Lower at every turn, while the stored count at the wall drops within chance: attention against the move, said.
    expect(scored.next).toBe(
      'look at "Shares by turn" in the Charts panel, where the twin\'s line ("CPL twin: prior assistant share") lies under the demo model\'s ("prior assistant") at every turn of this conversation.',
    );
    expect(scored.takeaway).toBe('The twin pays its prior assistant answers less attention, yet does not repeat clearly less.');
    const some = { ...lower, sweeps: [mine, [pt(2, 0.11, 0.25), pt(3, 0.18, 0.3), pt(4, 0.18, 0.45)]] };
    expect(step('cpl').reveal!(some, w).next).toMatch(/lies under the demo model's \("prior assistant"\) at 2 of this conversation's 3 turns\.$/);
    expect(step('cpl').reveal!(some, w).takeaway).toBe('The twin pays its prior assistant answers less attention, yet does not repeat clearly less.');
    expect(sentences(scored.said)).toBeLessThanOrEqual(WORDS.saidSentences);
    expect(words(scored.said)).toBeLessThanOrEqual(WORDS.said);
    expect(step('cpl').reveal!({ ...lower, sweeping: true }, w).next).toBeUndefined();
    expect(step('cpl').reveal!({ ...lower, sweeping: true }, w).said).not.toContain('Shares by turn');
    expect(told('cpl', { ...lower, sweeping: true }, w)).toMatch(
      /their attention follows\. So on this answer the twin .* In these counts the twins and the demo model all read the whole history \(Full\)\./,
    );
    expect(told('cpl', { ...lower, sweeps: [mine, mine.slice(0, 2)] }, w)).toMatch(
      /their attention follows\. So on this answer the twin .* In these counts the twins and the demo model all read the whole history \(Full\)\./,
    );
    const notLower = { ...cpl, sweeps: [mine, [pt(2, 0.14, 0.3), pt(3, 0.16, 0.34), pt(4, 0.21, 0.4)]] };
    expect(told('cpl', notLower, w)).toMatch(
      /at 1 of 3 turns .* at 1 of 3: on this conversation it does not lean clearly less\. So on this answer the twin .* In these counts the twins and the demo model all read the whole history \(Full\)\./,
    );
    const one = { ...w, generated: { 'clip:12:1': 'Path: 8 9.\nThought: go.\nMove: west' } };
    expect(step('generate').reveal!(one, w)).toEqual({
      said: 'Under Clip-12→1 the model moves west, an open way. Click DE (no earlier turn) and generate again to see whether the move changes.',
      more: 'The last user message names the walls: south. Under Clip-12→1 it wrote: "Path: 8 9.\nThought: go.\nMove: west".',
    });
    // Each move told from the walls the user message names ('south' here), and what the two say together.
    const says = (full: string, lt: string) => step('generate').reveal!({ ...w, generated: { full: `Move: ${full}`, lt: `Move: ${lt}` } }, w);
    expect(says('south', 'east')).toEqual({
      takeaway: wallTally().takeaway,
      said: `Under Full the model moves south, into a wall; under LT it moves east, an open way. The history changes what the model does. ${wallTally().said}`,
      caveat: wallTally().caveat,
      more: `The last user message names the walls: south. Under Full it wrote: "Move: south". Under LT it wrote: "Move: east". ${wallTally().more}`,
      luck: wallTally().luck,
      counts: wallTally().counts,
    });
    // Two answers written: then the count over many episodes, after what the two say.
    expect(says('east', 'east').said.endsWith(`The same move both ways: here the earlier turns do not change what the model does. ${wallTally().said}`)).toBe(
      true,
    );
    expect(says('east', 'south').said).toContain('Here the whole conversation helped: with less of it the model walks into a wall. Could the gap be luck?');
    expect(says('east', 'west').said).toMatch(/Both moves are open ways/);
    for (const [a, b] of [
      ['south', 'east'],
      ['east', 'east'],
      ['stay', 'east'],
    ] as const)
      expect(sentences(says(a, b).said), `${a}, ${b}`).toBeLessThanOrEqual(WORDS.saidSentences);
    // Written DE first, then Full: the verdict still reads Full against less of the conversation.
    expect(told('generate', { ...w, generated: { de: 'Move: east', full: 'Action -> South' } }, w)).toMatch(
      /^After a wall, it walks into it again in \d+ % .*\. Under Full the model moves south, into a wall; under DE it moves east, an open way\. The history changes what the model does/,
    );
    // Under DE the list of cells is a guess: said in the fold, not left a puzzle; not said without a DE answer.
    expect(told('generate', { ...w, generated: { de: 'Move: east', full: 'Action -> South' } }, w)).toContain(
      'Under DE it sees no earlier turn, so its list of cells visited is a guess.',
    );
    expect(told('generate', { ...w, generated: { lt: 'Move: east', full: 'Action -> South' } }, w)).not.toContain('is a guess');
    expect(says('stay', 'east').said).toMatch(
      /^Under Full the model stays where it is; .*Together: a different answer and a different move\. Could the gap be luck\?/,
    );
    // An observation with no walls named: the moves are not judged, only compared.
    expect(told('generate', { ...w, walls: null, generated: { full: 'Move: south', lt: 'Move: east' } }, w)).toMatch(
      /^After a wall, it walks into it again in \d+ % .*\. Under Full the model moves south; under LT it moves east\. Together: a different answer and a different move\. Could the gap be luck\?/,
    );
    // The previous answer is 'Path: 8 9 10.\nMove: south'; the last user message names the wall east.
    const off = (withOff: string, control?: string) => ({
      ...w,
      walls: ['east'],
      offAnswers: {
        withAll: 'Path: 8 9 10 11.\nMove: east',
        withOff,
        off: ['L1·H0', 'L1·H2'],
        ...(control !== undefined && { control: { off: ['L1·H3', 'L1·H5'], withOff: control } }),
      },
    });
    const heads = step('heads').reveal!(off('Path: 8 3.\nMove: north', 'Path: 8 9 10 12.\nMove: east'), w);
    expect(heads.said).toMatch(
      /^Written again with the most-copying heads off, \d+ % of the moves made still hit the wall; \d+ % with three at random off, \d+ % with the lowest\. (Its gaps to both are more than luck(, to the random three only just)?|Counting both its tests, luck alone would give a gap like the one to the lowest about 1 time in \d+)\. With every head on the model moves east, into a wall; with the most-copying heads off, north, an open way\. With the lowest off, east, into a wall; both change its list of cells\.$/,
    );
    expect(heads.more).toMatch(
      /^On this answer: both sets change the list of cells; here only the most-copying heads change the move\. Switched off \(named by layer and head, each counted from 0, so L1·H0 is the last layer's 1st head\): L1·H0, L1·H2 \(most copying: highest diagonal ratio\); L1·H3, L1·H5 \(lowest\), in the last layer\. In the grid, × marks a head switched off\. The answers are side by side under the button\. Each begins with the list of cells visited, copied from the previous answer \(copying the task asks for\)\. Words copied from it before an answer first differs: 4 with every head on, 2 with the most-copying heads off, 4 with the lowest off\. (With them off it finds an open way as rarely as with others off \(\d+ % against \d+ % at random\)\. )?The repeats are \d+ % of \d+ turns right after a wall; each turn has its own heads ranked\. /,
    );
    // With the goal told: where the open move leads against it, and that leaving the wall is not playing better.
    expect(told('heads', { ...off('Path: 8 3.\nMove: north', 'Path: 8 9 10 12.\nMove: east'), toGoal: ['south'] }, w)).toContain(
      'heads off, north, an open way, but away from the goal. With the lowest off, east, into a wall; both change its list of cells. with them off it finds an open way as rarely as with others off',
    );
    expect(told('heads', { ...off('Path: 8 3.\nMove: north', 'Path: 8 9 10 12.\nMove: east'), toGoal: ['west'] }, w)).toContain(
      'north, an open way, but not toward the goal.',
    );
    // Every way toward the goal walled: a sideways move goes around the wall, and is not blamed.
    const around = told('heads', { ...off('Path: 8 3.\nMove: north', 'Path: 8 9 10 12.\nMove: east'), toGoal: ['east'] }, w);
    expect(around).toContain('north, an open way, around the wall.');
    expect(around).not.toContain('away from the goal');
    // Only the most-copying heads off garble the list: said on the card, as a sign that they copy.
    const onlyTop = told('heads', off('Path: 8 3.\nMove: north', 'Path: 8 9 10 11.\nMove: east'), w);
    expect(onlyTop).toContain('On this answer: only the most-copying heads change the move, and they change the list of cells too: they copy.');
    expect(onlyTop).not.toContain('Both sets');
    // Neither list garbled: the move alone.
    const neither = told('heads', off('Path: 8 9 10 11.\nMove: north', 'Path: 8 9 10 11.\nMove: east'), w);
    expect(neither).toContain('On this answer: only the most-copying heads change the move: they carry some of the pull of its earlier moves.');
    expect(neither).not.toMatch(/garble/);
    expect(told('heads', { ...off('Path: 8 3.\nMove: north', 'Path: 8 9 10 12.\nMove: east'), toGoal: ['north', 'east'] }, w)).toContain(
      'north, an open way, toward the goal. With the lowest off, east, into a wall; both change its list of cells. with them off it finds an open way as rarely as with others off',
    );
    // The control changes the move too: the bright heads are not singled out.
    expect(told('heads', off('Path: 8 3.\nMove: north', 'Path: 8.\nMove: west'), w)).toContain(
      'On this answer: the others off change the move too: in a model this small any three heads matter, so this does not single out the most-copying heads.',
    );
    // Into another wall, not an open way; the control as it was.
    expect(told('heads', { ...off('Path: 8 3.\nMove: south', 'Path: 8.\nMove: east'), walls: ['east', 'south'] }, w)).toContain(
      'On this answer: the most-copying heads change the move, though not to an open way; the others leave it as it was.',
    );
    expect(told('heads', off('Path: 8 3.\nMove: east', 'Path: 8.\nMove: east'), w)).toContain('On this answer: the move does not hang on those heads alone.');
    // An answer that no longer ends in a move fell apart: not read as the pull going.
    expect(told('heads', off('Pathassistant\nPath: 8', 'Path: 8 9 10 12.\nMove: east'), w)).toContain(
      'On this answer: without those heads the answer falls apart (it no longer ends in a move): switching them off breaks the model and says nothing about inertia.',
    );
    // No control yet, no walls: only what changed, and no count over the episodes.
    expect(headsOffReveal(off('Path: 8 3.\nMove: north').offAnswers, null, ['east']).said).toBe(
      'With every head on the model moves east, into a wall; with the most-copying heads off, north, an open way, and its list of cells comes out different. Without those heads it takes an open way, though a model missing parts may also just write differently.',
    );
    // "Its list comes out wrong" only where the most-copying heads alone garble it; where both sets do, said of both; where neither, nothing.
    const bothWrong = headsOffReveal(off('Path: 8 3.\nMove: north', 'Path: 8.\nMove: east').offAnswers, null, ['east']).said;
    expect(bothWrong).not.toContain('its list of cells comes out different');
    expect(bothWrong).toContain('. With the lowest off, east, into a wall; both change its list of cells.');
    expect(headsOffReveal(off('Path: 8 9 10 11.\nMove: north', 'Path: 8 9 10 11.\nMove: east').offAnswers, null, ['east']).said).not.toContain('list of cells');
    expect(told('heads', { ...off('Path: 8 3.\nMove: north', 'Move: east'), walls: null }, w)).not.toContain('stored turns');
  });

  it('keeps a figure a later step asks to guess out of the panel until it is guessed', () => {
    const shares = LESSON.findIndex((s) => s.id === 'shares');
    const diagonal = LESSON.findIndex((s) => s.id === 'diagonal');
    expect(guessesAhead(0, {})).toBe('prior,diagonal,filler');
    expect(guessesAhead(shares, {})).toBe('diagonal,filler'); // its own guess is covered by the step itself
    expect(guessesAhead(shares - 1, { prior: 0.4 })).toBe('diagonal,filler');
    expect(guessesAhead(diagonal, { prior: 0.4 })).toBe('filler');
    expect(guessesAhead(diagonal, { prior: 0.4, filler: 0 })).toBe('');
    expect(guessesAhead(null, {})).toBe('');
    // The five shares add up to 100 %: while the prior one is ahead, the other four are hidden too (1 − their sum would give it).
    for (const c of ['sink', 'system', 'user', 'prior', 'current']) expect(maskedBy(['prior', 'diagonal'], c), c).toBe(true);
    expect(maskedBy(['diagonal'], 'user')).toBe(false);
    expect(maskedBy(['diagonal'], 'diagonalCopy')).toBe(true);
    expect(maskedBy(['prior'], 'diagonal')).toBe(false);
  });

  it('gives the prior assistant share its yardstick: what attention spread evenly would give those tokens (hand-computed)', () => {
    // 10 tokens before the answer, 4 of them prior assistant; answer rows see 11 and 12 tokens: (4/11 + 4/12) / 2.
    const cats = ['sink', 'sink', 'sink', 'system', 'prior', 'prior', 'user', 'prior', 'prior', 'user', 'current', 'current'];
    const r = { ...figures('full', 0.2, 0.7), query: { start: 10, end: 12 }, tokens: cats.map((category) => ({ category })) } as unknown as PolicyResult;
    expect(evenShare(r, 'prior')).toBeCloseTo((4 / 11 + 4 / 12) / 2, 12);
    // The answer's own tokens: the first row sees itself (1 of 11), the second both (2 of 12); the sink 3 of each.
    expect(evenShare(r, 'current')).toBeCloseTo((1 / 11 + 2 / 12) / 2, 12);
    expect(evenShare(r, 'sink')).toBeCloseTo((3 / 11 + 3 / 12) / 2, 12);
    const all = (['sink', 'system', 'user', 'prior', 'current'] as const).reduce((x, c) => x + evenShare(r, c), 0);
    expect(all).toBeCloseTo(1, 12);
    expect(priorYardstick(r)).toEqual({
      lead: ', 2.0 times an even share (they are 35 % of the tokens it can see)',
      rest: ' An even share is what looking at every token equally would give them.',
    });
    // The shares step draws all five kinds, adding up to 100 %, each against its part of the tokens (hand-counted:
    // 3 sink, 1 system, 2 user tokens; the answer's own, 1 then 2).
    const shares = step('shares').reveal!({ ...start, results: [r], guesses: { prior: 0.5 } }, null).bars!;
    expect(shares.rows.map((x) => x.label)).toEqual(['sink (first 3 tokens)', 'system prompt', "user's turns", 'prior assistant answers', 'current answer']);
    expect(shares.rows.map((x) => x.value)).toEqual([r.ratios.sink, r.ratios.system, r.ratios.user, 0.7, r.ratios.current]);
    // A sink that gets next to nothing (under 5 %): the row says this small model parks little there.
    const little = { ...r, ratios: { ...r.ratios, sink: 0.01 } } as PolicyResult;
    expect(step('shares').reveal!({ ...start, results: [little], guesses: { prior: 0.5 } }, null).bars!.rows[0]!.label).toBe(
      'sink (first 3 tokens; this small model parks little there)',
    );
    expect(shares.rows[1]!.even).toBeCloseTo((1 / 11 + 1 / 12) / 2, 12);
    expect(shares.rows[2]!.even).toBeCloseTo((2 / 11 + 2 / 12) / 2, 12);
    expect(shares.rows[4]!.even).toBeCloseTo((1 / 11 + 2 / 12) / 2, 12);
    // The answer's look at itself, in the fold, against the same chance: said where it is twice chance or more.
    const self = { ...r, ratios: { ...r.ratios, current: 0.5 } } as PolicyResult;
    const times = (0.5 / ((1 / 11 + 2 / 12) / 2)).toFixed(1);
    expect(step('shares').reveal!({ ...start, results: [self], guesses: { prior: 0.5 } }, null).more).toContain(
      `50 % to the current answer itself (${times} times an even share: each token reads the few words just before it most`,
    );
    const low = { ...r, ratios: { ...r.ratios, current: 0.2 } } as PolicyResult;
    expect(step('shares').reveal!({ ...start, results: [low], guesses: { prior: 0.5 } }, null).more).toContain('20 % to the current answer itself. ');
    // The user's turns under four fifths of their part of the tokens (even share (2/11 + 2/12)/2 ≈ 0.174): said on the card,
    // with the answer's own words where those get twice chance or more; nothing where the user's turns get their part.
    const said = (x: PolicyResult) => step('shares').reveal!({ ...start, results: [x], guesses: { prior: 0.5 } }, null).said;
    expect(said({ ...self, ratios: { ...self.ratios, user: 0.1 } } as PolicyResult)).toMatch(
      / The user's turns get less than their share of the tokens, since what one kind gets above its even share, the others give up\.$/,
    );
    // Unfolded under "Careful:", the limit of any share; the answer's own words at twice chance, in the fold (above).
    expect(step('shares').reveal!({ ...start, results: [self], guesses: { prior: 0.5 } }, null).caveat).toBe(
      'a share says where the answer looks, not what it takes in: each token carries the words before it, like a running summary.',
    );
    expect(said({ ...low, ratios: { ...low.ratios, user: 0.1 } } as PolicyResult)).toMatch(
      / The user's turns get less than their share of the tokens, since what one kind gets above its even share, the others give up\.$/,
    );
    expect(said({ ...self, ratios: { ...self.ratios, user: 0.15 } } as PolicyResult)).not.toContain("user's turns");
    // Near what length alone gives: said so, and the diagonal named as what tells copying apart.
    const near = { ...r, ratios: { ...r.ratios, prior: 0.4 } } as PolicyResult;
    expect(priorYardstick(near)).toEqual({
      lead: ', 1.1 times an even share (they are 35 % of the tokens it can see)',
      rest: ' An even share, looking at every token equally, would give them just their part of the tokens; they get a little more. The diagonal, next, tells copying apart from mere length.',
    });
    expect(priorYardstick({ ...r, ratios: { ...r.ratios, prior: 0.35 } } as PolicyResult).rest).toContain('part of the tokens; they get about that.');
  });

  it('counts, turn by turn, where a second model is lower: only turns both have scored, ties not lower', () => {
    const a = [pt(2, 0.1, 0.3), pt(3, 0.2, 0.4), pt(4, 0.3, 0.5)];
    const b = [pt(2, 0.1, 0.2), pt(4, 0.25, 0.6), pt(5, 0, 0)];
    expect(turnByTurn(a, b)).toEqual({ turns: 2, priorLower: 1, diagonalLower: 1 });
    expect(turnByTurn(a, [])).toEqual({ turns: 0, priorLower: 0, diagonalLower: 0 });
  });

  it('finds the longest run of turns that give the same move, and whether its last runs into a named wall', () => {
    const t = (move: string, walls = 'none') => ({ answer: `Path: 1.\nMove: ${move}`, asked: `Round 1. Walls: ${walls}.` });
    expect(longestStreak([t('east'), t('west'), t('west'), t('west', 'west'), t('east')])).toEqual({ from: 2, to: 4, move: 'west', wallFrom: 4 });
    // From the first turn that runs into a named wall on, every one does: the turn before is free.
    expect(longestStreak([t('west'), t('west', 'west'), t('west', 'east'), t('west', 'west'), t('west', 'west')])).toMatchObject({ wallFrom: 4 });
    expect(longestStreak([t('west', 'west'), t('west', 'west'), t('west', 'west')])).toMatchObject({ wallFrom: 1 });
    // Two runs: the longer; a tie: the first; fewer than three: none.
    expect(longestStreak([t('north'), t('north'), t('north'), t('south'), t('south'), t('south'), t('south')])).toMatchObject({ from: 4, to: 7 });
    expect(longestStreak([t('north'), t('north'), t('north'), t('south'), t('south'), t('south')])).toMatchObject({ from: 1, to: 3, wallFrom: null });
    expect(longestStreak([t('north'), t('north'), t('east')])).toBeNull();
    expect(
      longestStreak([
        { answer: 'no move', asked: null },
        { answer: 'no move', asked: null },
        { answer: 'no move', asked: null },
      ]),
    ).toBeNull();
    // Said in the first step's reveal: the run, and the point (only where it walks into a wall more than once).
    const caseSaid = (streak: LessonWorld['streak']) => step('case').reveal!({ ...start, streak }, null);
    expect(caseSaid({ from: 5, to: 8, move: 'west', wallFrom: 8 })).toEqual({
      said: 'Turns 5 to 8 say west 4 times in a row, the last into a wall the user named.',
    });
    // The habit's origin, the caveat of every run into a wall: the demo model was taught it.
    expect(caseSaid({ from: 2, to: 10, move: 'south', wallFrom: 5 })).toEqual({
      takeaway: 'From turn 5 on, it answers south into a wall the user named, 6 turns in a row.',
      said: 'It had said south since turn 2; from turn 5 on, a wall blocks that way, and it keeps saying it.',
      caveat: TAUGHT,
    });
    // Where its goal lies that way, said in the sentence.
    expect(step('case').reveal!({ ...start, streak: { from: 2, to: 10, move: 'south', wallFrom: 5 }, toGoal: ['south', 'east'] }, null).said).toBe(
      'It had said south since turn 2, toward its goal; from turn 5 on, a wall blocks that way, and it keeps saying it.',
    );
    expect(caseSaid({ from: 2, to: 4, move: 'south', wallFrom: 2 })).toEqual({
      takeaway: 'From turn 2 on, it answers south into a wall the user named, 3 turns in a row.',
      said: 'Each of those south moves runs into a wall the user named.',
      caveat: TAUGHT,
    });
    expect(caseSaid({ from: 2, to: 4, move: 'south', wallFrom: null }).said).toBe('Turns 2 to 4 say south 3 times in a row.');
    expect(caseSaid(null).said).toBe('');
  });

  it('reads one token of the answer: its attention by kind of token and the prior assistant answer it looks at most (hand-computed)', () => {
    const cats = ['sink', 'sink', 'sink', 'system', 'user', 'prior', 'prior', 'user', 'current', 'current'];
    const data = new Float32Array(20);
    data.set([0.1, 0, 0, 0.1, 0.1, 0.5, 0.1, 0.1, 0, 0], 0); // token 8 sees 0..8
    data.set([0, 0, 0, 0, 0.2, 0.1, 0.1, 0.4, 0.1, 0.1], 10); // token 9 sees 0..9
    const r = {
      ...figures('full', 0.1, 0.3),
      tokens: cats.map((category, i) => ({ category, text: ` t${i}` })),
      query: { start: 8, end: 10 },
      attention: { layer: 1, mean: { data, heads: 1, rowStart: 8, rows: 2, seqLen: 10 }, perHead: null },
      messages: twoTurns([4, 1, 2, 1, 2]),
    } as unknown as PolicyResult;
    const first = tokenReading(r, 0)!;
    expect(first.text).toBe(' t8');
    for (const [c, v] of Object.entries({ sink: 0.1, system: 0.1, user: 0.2, prior: 0.6, current: 0 }))
      expect(first.shares[c as keyof typeof first.shares], c).toBeCloseTo(v, 6);
    expect(first.topAnswer!.turn).toBe(1);
    expect(first.topAnswer!.share).toBeCloseTo(0.6, 6);
    expect(tokenReading(r, 1)!.topAnswer!.share).toBeCloseTo(0.2, 6);
    expect(tokenReading(r, 2)).toBeNull();
  });

  it('says which of the heads switched off stands out, against the layer on average (hand-computed)', () => {
    const head = (diagonal: number) => ({ ratios: figures('full', 0, 0).ratios, diagonal, diagonalCopyAligned: diagonal });
    const r = { ...figures('full', 0.19, 0.1), perHead: [0.38, 0.22, 0.1, 0.12, 0.15, 0.2, 0.1, 0.21].map(head) } as unknown as PolicyResult;
    // 0.38 ≥ 1.5 × 0.22: head 1.0 stands out; 1.1 and 1.7 barely above the mean.
    expect(copiersSaid(r, ['L1·H0', 'L1·H1', 'L1·H7'])).toMatch(
      /^Of the three switched off, head L1·H0 stands out \(38 %\); L1·H1 22 %, L1·H7 21 % are only a little above the layer's 19 % on average\. The first layer copies too/,
    );
    const even = { ...r, perHead: [0.3, 0.25, 0.1, 0.1, 0.1, 0.1, 0.1, 0.24].map(head) } as unknown as PolicyResult;
    expect(copiersSaid(even, ['L1·H0', 'L1·H1', 'L1·H7'])).toMatch(
      /^Of the three switched off, L1·H0 30 %, L1·H1 25 %, L1·H7 24 %, against the layer's 19 % on average\./,
    );
    expect(copiersSaid(null, ['L1·H0'])).toMatch(/^The first layer copies too/);
    // The heads step's text names the grid's highest head in words (its figure against the layer is the fold's, above).
    expect(step('heads').text({ ...start, results: [{ ...r, layer: 1 }] })).toContain(
      "In the grid, ★ marks the head with the highest diagonal ratio, the last layer's 1st.",
    );
    expect(step('heads').text({ ...start, results: [] })).toContain('(★ the highest; heads named layer.head, counted from 0).');
  });

  it("names each token by turn and line, as the heatmap's stripes are named (hand-computed)", () => {
    const toks: [string, string, number][] = [
      ['<s>', 'sink', 0],
      [' Go', 'system', 0],
      [' wall', 'user', 1],
      ...(['Thought', ':', ' south', '\n', 'Action', ' ->', ' south'].map((t) => [t, 'prior', 2]) as [string, string, number][]),
      [' hit', 'user', 3],
      ...(['Thought', ':', ' south'].map((t) => [t, 'current', 4]) as [string, string, number][]),
    ];
    const data = new Float32Array(3 * 14);
    // The answer's third row (token 13) sees all 14 tokens; its weights add up to 1.
    data.set([0.05, 0.05, 0.05, 0.02, 0.02, 0.3, 0.01, 0.02, 0.02, 0.1, 0.06, 0.05, 0.05, 0.2], 2 * 14);
    const r = {
      ...figures('full', 0.1, 0.3),
      tokens: toks.map(([text, category, message]) => ({ text, category, message })),
      query: { start: 11, end: 14 },
      attention: { layer: 1, mean: { data, heads: 1, rowStart: 11, rows: 3, seqLen: 14 }, perHead: null },
      messages: twoTurns([2, 1, 7, 1, 3]),
    } as unknown as PolicyResult;
    expect([0, 1, 2, 5, 9, 10, 13].map((k) => whereToken(r, k))).toEqual([
      'the sink',
      'the system prompt',
      "turn 1's user message",
      "turn 1's answer, Thought line",
      "turn 1's answer, Action line",
      "turn 2's user message",
      'its own answer, Thought line',
    ]);
  });

  it('reads how much a repeated word looks at the same word in earlier answers, against looking at every token equally (hand-computed)', () => {
    // Keys 0..9; the pointed token (9, " south") sees 10 tokens, 2 of them " south" in prior answers (5 and 7) and
    // one "South" in a user turn (4, not counted): 0.3 + 0.2 = 0.5 of its attention, against 2 / 10 evenly.
    const texts = [' a', ' b', ' c', ' d', 'South', ' south', ' x', 'south', ' y', ' south'];
    const cats = ['sink', 'sink', 'sink', 'system', 'user', 'prior', 'prior', 'prior', 'user', 'current'];
    const data = Float32Array.from([0.05, 0, 0, 0.05, 0.2, 0.3, 0.05, 0.2, 0.05, 0.1]);
    const r = {
      ...figures('full', 0.1, 0.3),
      // Messages: the first 4 tokens the system prompt (0), the user turn (1), the prior answer (2), the user turn, the answer.
      tokens: cats.map((category, i) => ({ category, text: texts[i], message: [0, 0, 0, 0, 1, 2, 2, 2, 3, 4][i] })),
      query: { start: 9, end: 10 },
      attention: { layer: 1, mean: { data, heads: 1, rowStart: 9, rows: 1, seqLen: 10 }, perHead: null },
      messages: [
        { role: 'system', category: 'system', turn: null, span: { start: 0, length: 4 } },
        { role: 'user', category: 'user', turn: 1, span: { start: 4, length: 1 } },
        { role: 'assistant', category: 'prior', turn: 1, span: { start: 5, length: 3 } },
        { role: 'user', category: 'user', turn: 2, span: { start: 8, length: 1 } },
        { role: 'assistant', category: 'current', turn: 2, span: { start: 9, length: 1 } },
      ],
    } as unknown as PolicyResult;
    const same = tokenReading(r, 0)!.sameWord!;
    expect(same.count).toBe(2);
    expect(same.share).toBeCloseTo(0.5, 6);
    expect(same.even).toBeCloseTo(0.2, 12);
    // The one token it looks at most in its own answer (a " south" at 8, made current, takes 0.6): named as such.
    const ownCats = cats.map((c, i) => (i === 8 ? 'current' : c));
    const texts8 = texts.map((t, i) => (i === 8 ? ' south' : t));
    data.set([0.05, 0, 0, 0.05, 0, 0.15, 0, 0.1, 0.6, 0.05]);
    const own = { ...r, tokens: ownCats.map((category, i) => ({ category, text: texts8[i] })), query: { start: 8, end: 10 } } as unknown as PolicyResult;
    expect(tokenReading(own, 0)!.top).toEqual({ k: 8, text: ' south', category: 'current' });
    // A token no earlier answer wrote, or one without a letter: no such sentence.
    expect(tokenReading({ ...r, tokens: r.tokens.map((t, i) => (i === 9 ? { ...t, text: '.' } : t)) } as PolicyResult, 0)!.sameWord).toBeNull();
  });

  it('reads which way the goal lies from a maze observation', () => {
    expect(towardGoal('Round 10. Position (3,3). Walls: south. Goal: (3,4). You hit a wall.')).toEqual(['south']);
    expect(towardGoal('Round 12. Position (5,2). Walls: north, east. Goal: (3,3).')).toEqual(['south', 'west']);
    expect(towardGoal('Plan a trip to Lisbon.')).toBeNull();
    // The step's text does not speak of the goal: this maze's goal beyond the wall is rare, and readers found the sentence purposeless.
    expect(step('generate').text(start)).not.toContain('goal');
  });

  it('reads the walls a maze observation names', () => {
    expect(wallsIn('Round 10. Position (3,3). Walls: south. Goal: (3,4). You hit a wall.')).toEqual(['south']);
    expect(wallsIn('Round 3. Position (3,1). Walls: east, west. Goal: (3,4).')).toEqual(['east', 'west']);
    expect(wallsIn('Round 4. Position (3,2). Walls: none. Goal: (3,4).')).toEqual([]);
    expect(wallsIn('Plan a trip to Lisbon.')).toBeNull();
  });

  it('gives the diagonal its yardstick: what attention spread evenly would put in the band (hand-computed)', () => {
    // Answer rows at positions 10 and 11 (11 and 12 keys visible), one prior assistant answer of 3 tokens, r = 1:
    // row 0's band covers offsets 0–1 (2 keys), row 1's offsets 0–2 (3 keys).
    const r = {
      ...figures('full', 0.2, 0.3),
      radius: 1,
      query: { start: 10, end: 12 },
      diagonalPerAnswer: [{ message: 0, turn: 1, value: 0.2 }],
      messages: [{ content: { start: 2, length: 3 } }],
    } as unknown as PolicyResult;
    expect(evenDiagonal(r)).toBeCloseTo((2 / 11 + 3 / 12) / 2, 12);
    // The guess (about an even share) read against the figure in the same three words: right, then wrong.
    const w = { ...start, guesses: { diagonal: 1 }, results: [r] };
    expect(told('diagonal', w, w)).toMatch(
      /You guessed about an even share, rightly; the band gets 20 %, 0\.9 times the 22 % even share, about an even share\. a stripe's cells inside the band count too, though not copies, so a band can pass its even share with little copying\. On the figures panel: .* It is part of/,
    );
    const twice = { ...w, results: [{ ...r, diagonal: 0.5 }] };
    expect(told('diagonal', twice, twice)).toMatch(
      /You guessed about an even share; the band gets 50 %, 2\.3 times the 22 % even share, well above an even share\. Here much of it is the list of cells, which the task asks it to copy, not the move\. a stripe's cells .* On/,
    );
    // Filler below chance, beside Full: said with the same yardstick, and drawn, each against its chance.
    const filler = {
      ...w,
      shown: ['full', 'filler'],
      results: [
        { ...r, policy: 'full', diagonal: 0.3 },
        { ...r, policy: 'filler', diagonal: 0.05 },
      ],
    };
    // The guess (it falls) read against the figures in the same words, and each bar against its own chance.
    const guessed = { ...filler, guesses: { filler: 0 } };
    expect(told('filler', guessed, guessed)).toMatch(
      /^Most of the band goes with the words, so it rests on what the answers say\. You guessed it falls, rightly; the band gets 5 % with filler in the answers' place, against 30 % as written\. That is below its 22 % even share: between the pink lines Filler's heatmap is mostly dark\. filler is odd text/,
    );
    expect(told('filler', { ...filler, guesses: { filler: 2 } }, filler)).toMatch(/You guessed it rises; the band gets 5 %/);
    expect(step('filler').reveal!(filler, filler).bars!.rows.map((x) => [x.label, x.value])).toEqual([
      ['as written (left heatmap)', 0.3],
      ['with filler (right heatmap)', 0.05],
    ]);
    // The lesson leaves the copy-aligned band out: a displaced copy adds nothing to the reveal.
    const moved = { ...w, results: [{ ...r, copy: [{ message: 0, turn: 1, longestRun: 9, ngramOverlap: 0.5, shift: -4 }] }] };
    expect(told('diagonal', moved, moved)).toBe(told('diagonal', w, w));
  });

  it("splits the diagonal by the answer's lines: the parts add up to it (hand-computed)", () => {
    // Keys: 2 sink, an earlier answer "x \n y" (2..4), a user token, the answer "x \n y" (6..8); r = 0: row i reads key 2 + i.
    const texts = ['<s>', '<s>', 'x', '\n', 'y', 'u', 'x', '\n', 'y'];
    const rows = [
      [0, 0, 0.4, 0, 0, 0.6, 0, 0, 0],
      [0, 0, 0, 0.3, 0, 0.2, 0.25, 0.25, 0],
      [0, 0, 0, 0, 0.2, 0.2, 0.2, 0.2, 0.2],
    ];
    const r = {
      ...figures('full', (0.4 + 0.3 + 0.2) / 3, 0.3),
      radius: 0,
      query: { start: 6, end: 9 },
      tokens: texts.map((text) => ({ text })),
      diagonalPerAnswer: [{ message: 0, turn: 1, value: 0.3 }],
      messages: [{ content: { start: 2, length: 3 } }],
      attention: { layer: 1, perHead: null, mean: { data: Float32Array.from(rows.flat()), heads: 1, rowStart: 6, rows: 3, seqLen: 9 } },
    } as unknown as PolicyResult;
    // The last line is row 2 (after the answer's line break, which ends the first line with row 1).
    const split = diagonalByLines(r, 1)!;
    expect(split.before).toBeCloseTo((0.4 + 0.3) / 3, 7);
    expect(split.last).toBeCloseTo(0.2 / 3, 7);
    expect(split.before + split.last).toBeCloseTo(r.diagonal, 7);
    // Each part's chance: row i sees 7 + i tokens, one of them in the band (r = 0).
    expect(split.evenBefore).toBeCloseTo((1 / 7 + 1 / 8) / 3, 12);
    expect(split.evenLast).toBeCloseTo(1 / 9 / 3, 12);
    // Both lines the last two: nothing before them.
    expect(diagonalByLines(r, 2)!.before).toBeCloseTo(0, 7);
    // Every row of the matrix kept (the full matrix): the answer's rows are read out of it.
    const full = Float32Array.from([...Array.from({ length: 6 * 9 }, () => 0), ...rows.flat()]);
    const all = { ...r, attention: { ...r.attention!, mean: { ...r.attention!.mean, data: full, rowStart: 0, rows: 9 } } } as PolicyResult;
    expect(diagonalByLines(all, 1)!.last).toBeCloseTo(0.2 / 3, 7);
    expect(diagonalByLines({ ...r, attention: undefined }, 1)).toBeNull();
    // The diagonal step says the split, at a wall, with the answer's three lines (list, thought, move) read as two parts.
    const w = { ...start, guesses: { diagonal: 2 }, results: [{ ...r, ratios: { ...r.ratios, prior: 0.5 } }] };
    // Guessed right (more than an even share), the split is the verdict; guessed wrong, the verdict is said first.
    const wrong = { ...w, guesses: { diagonal: 0 } };
    expect(step('diagonal').reveal!(wrong, wrong).said).toMatch(
      /^You guessed less than an even share; .*, 2\.4 times the 13 % even share, well above an even share\. Each list/,
    );
    expect(step('diagonal').reveal!(w, w).said).toMatch(
      /^You guessed more than an even share, rightly; .*, 2\.4 times the 13 % even share\. Each list of cells \(above the white line\) should be the one before plus the new cell \(the model sometimes gets it wrong\), so copying it is the task\. The thought and move \(below it\) sit at 2\.4 times an even share, the trace in attention of the repeated thought and move\.$/,
    );
    // Every row looking at "x" (key 2), which a band of radius 2 holds for each: an upright stripe, named on the card.
    const striped = {
      ...r,
      radius: 2,
      tokens: texts.map((text, i) => ({
        text,
        category: i < 2 ? 'sink' : i < 5 ? 'prior' : i < 6 ? 'user' : 'current',
        message: [0, 0, 1, 1, 1, 2, 3, 3, 3][i],
      })),
      messages: [
        { role: 'system', category: 'sink', turn: null, span: { start: 0, length: 2 }, content: { start: 0, length: 2 } },
        { role: 'assistant', category: 'prior', turn: 1, span: { start: 2, length: 3 }, content: { start: 2, length: 3 } },
        { role: 'user', category: 'user', turn: 2, span: { start: 5, length: 1 }, content: { start: 5, length: 1 } },
        { role: 'assistant', category: 'current', turn: 2, span: { start: 6, length: 3 }, content: { start: 6, length: 3 } },
      ],
      diagonalPerAnswer: [{ message: 1, turn: 1, value: 0.3 }],
      attention: {
        ...r.attention!,
        mean: { ...r.attention!.mean, data: Float32Array.from(rows.flatMap((row) => row.map((_, k) => (k === 2 ? 0.5 : k === 5 ? 0.5 : 0)))) },
      },
    } as unknown as PolicyResult;
    const ws = { ...w, results: [{ ...striped, diagonal: 0.5, ratios: { ...striped.ratios, prior: 0.5 } }] };
    // At a wall the split by lines is the card's reading; the stripe, in the fold.
    expect(step('diagonal').reveal!(ws, ws).more).toContain(
      'Its brightest cells stand in an upright stripe on "x" (turn 1\'s answer), looked at row after row: the band counts it too, copying or not.',
    );
    expect(step('diagonal').reveal!(w, w).more).toMatch(
      /^An answer that copied a whole prior assistant answer line for line would show here\. As the bars give them, averaged over their own tokens: the list of cells, which the task asks it to copy, 0 % \(even share 0 %\); the thought and move lines 30 % \(even share 13 %\)\. On the figures panel/,
    );
    // Positions in words, for the copy the diagonal step outlines ("the 10th or 11th").
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 100, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '100th',
      '101st',
      '111th',
    ]);
    // Drawn: the whole answer and its two parts, each averaged over its own tokens, against its own chance. With the
    // last line as the tail: the list is rows 0 and 1 ((0.4 + 0.3) / 2), the move row 2 (0.2), chance 1/7, 1/8, 1/9.
    const one = perToken(split, 3);
    // The weights are float32 (7 places); chance is exact.
    expect(one.before).toBeCloseTo((0.4 + 0.3) / 2, 7);
    expect(one.last).toBeCloseTo(0.2, 7);
    expect(one.evenBefore).toBeCloseTo((1 / 7 + 1 / 8) / 2, 12);
    expect(one.evenLast).toBeCloseTo(1 / 9, 12);
    expect([split.rowsBefore, split.rowsLast]).toEqual([2, 1]);
    // With both lines as the tail, the list has no rows: its average is 0, not a division by nothing.
    expect(perToken(diagonalByLines(r, 2)!, 3)).toMatchObject({ before: 0, evenBefore: 0 });
    const two = perToken(diagonalByLines(r)!, 3);
    expect(step('diagonal').reveal!(w, w).bars).toEqual({
      caption:
        'Attention on the diagonal: each part averaged over its own tokens, against its own even share (a later row sees more tokens, so its even share is smaller)',
      rows: [
        { label: 'whole answer', value: r.diagonal, even: evenDiagonal(r) },
        { label: 'list of cells (above the white line)', value: two.before, even: two.evenBefore },
        { label: 'thought and move (below it)', value: two.last, even: two.evenLast },
      ],
    });
    // The band's cells a twentieth as bright: (0.02 + 0.015 + 0.01) / 3 = 1.5 %, about a tenth of chance, said so.
    const faint = {
      ...r,
      attention: {
        ...r.attention!,
        mean: { ...r.attention!.mean, data: Float32Array.from(rows.flat().map((v, k) => (k % 9 === 2 + Math.floor(k / 9) ? v / 20 : v))) },
      },
    } as PolicyResult;
    const wf = { ...w, results: [{ ...faint, diagonal: 0.3, ratios: { ...faint.ratios, prior: 0.5 } }] };
    expect(step('diagonal').reveal!(wf, wf).said).toMatch(
      /even share\. Each list of cells \(above the white line\) should be the one before plus the new cell \(the model sometimes gets it wrong\), so copying it is the task\. The thought and move \(below it\) sit below an even share, so they do not copy a prior assistant answer in step\.$/,
    );
  });

  it("names the heatmap's brightest stripe: the token before the answer its rows look at most (hand-computed)", () => {
    // Keys: 2 sink, an earlier answer "x \n y" (turn 1), a user token "u" (turn 2), the answer (6..8).
    const cats = ['sink', 'sink', 'prior', 'prior', 'prior', 'user', 'current', 'current', 'current'];
    const msg = [0, 0, 1, 1, 1, 2, 3, 3, 3];
    const rows = [
      [0.5, 0, 0.4, 0, 0, 0.1, 0, 0, 0],
      [0.5, 0, 0, 0.3, 0, 0.2, 0, 0, 0],
      [0.5, 0, 0, 0, 0.2, 0.15, 0.1, 0.05, 0],
    ];
    const r = {
      ...figures('full', 0.3, 0.3),
      query: { start: 6, end: 9 },
      tokens: ['<s>', '<s>', 'x', '\n', 'y', ' u', 'x', '\n', 'y'].map((text, k) => ({ text, category: cats[k], message: msg[k] })),
      messages: [
        { turn: null, span: { start: 0, length: 2 } },
        { turn: 1, content: { start: 2, length: 3 }, span: { start: 2, length: 3 } },
        { turn: 2, content: { start: 5, length: 1 }, span: { start: 5, length: 1 } },
        { turn: 3, span: { start: 6, length: 3 } },
      ],
      attention: { layer: 1, perHead: null, mean: { data: Float32Array.from(rows.flat()), heads: 1, rowStart: 6, rows: 3, seqLen: 9 } },
    } as unknown as PolicyResult;
    // The sink's column (0.5 a row) is left out; "x" gets 0.4 / 3, "u" (0.1 + 0.2 + 0.15) / 3.
    const c = brightestColumn(r)!;
    expect(c).toMatchObject({ text: ' u', category: 'user', turn: 2 });
    expect(c.share).toBeCloseTo(0.45 / 3, 7);
    expect(stripeSaid(r)).toBe(
      `The brightest stripe is "u" (turn 2's user message, "fit" shows it): every row reads it, 15 % of the answer's attention in all.`,
    );
    // A template marker is no word of the conversation: "u" out of its message's text, "x" is the brightest.
    const marker = { ...r, messages: [r.messages[0], r.messages[1], { ...r.messages[2], content: { start: 6, length: 0 } }, r.messages[3]] } as PolicyResult;
    expect(brightestColumn(marker)).toMatchObject({ text: 'x', turn: 1 });
    // In the last prior assistant answer: the diagonal step's zoom shows it.
    // A result lists each prior assistant answer's diagonal: message 1, now one, among them.
    const prior = {
      ...marker,
      messages: marker.messages.map((m, k) => (k === 1 ? { ...m, category: 'prior' } : m)),
      diagonalPerAnswer: [{ message: 1, turn: 1, value: 0 }],
    } as PolicyResult;
    // The heatmap points at it where it is brightest: "x" (key 2) is read most by the first row (token 6); "u" lies
    // outside the zoom on the last prior assistant answer, so no arrow.
    expect(stripeCell(prior)).toEqual({ q: 6, k: 2 });
    expect(stripeCell(r)).toBeNull();
    // The marker " u" is read more (0.45 / 3) than "x" (0.4 / 3): the tallest column, said so it is not taken for the stripe named.
    expect(brighterMarker(marker)).toEqual({ k: 5, share: expect.closeTo(0.15, 7) });
    expect(brighterMarker(r)).toBeNull();
    expect(stripeSaid(prior)).toBe(
      `Of the conversation's words, the brightest stripe is "x" (turn 1's answer): every row reads it, 13 % of the answer's attention in all. The tallest column is "u", the marker the chat format puts before the answer (15 %): a stripe too, though nobody wrote it.`,
    );
    expect(brightestColumn({ ...r, attention: undefined })).toBeNull();
    expect(stripeSaid({ ...r, attention: undefined })).toBe('');
  });

  it("finds where the answer's line runs in the band: one token right of the centre where it looks at the next token to copy (hand-computed)", () => {
    // 8 tokens: an earlier answer at 2–4, the answer at 5–7 (3 rows). In `centre` row i looks at token 2 + i (the
    // centre); in `next` at 2 + i + 1 (the token that came next), its last row, with no next token there, at 0.
    const centre = new Float64Array(24);
    const data = new Float64Array(24);
    for (let i = 0; i < 3; i++) {
      centre[i * 8 + 2 + i] = 1;
      data[i * 8 + (i < 2 ? 3 + i : 0)] = 1;
    }
    const r = {
      radius: 1,
      query: { start: 5, end: 8 },
      messages: [{ content: { start: 0, length: 2 } }, { content: { start: 2, length: 3 } }],
      diagonalPerAnswer: [{ message: 1 }],
      attention: { layer: 0, mean: slab(centre, 3, 8, 5), perHead: null },
    } as unknown as PolicyResult;
    expect(bandLine(r)).toBe(0);
    // Said in words, either side: a copier computes the next word, so it reads the token after the in-step one.
    expect(linePhrase(1)).toBe(
      'one token right of the dotted centre: each row computes the next word, so a copier looks at the token after the in-step one, the word it is about to write',
    );
    expect(linePhrase(-1)).toBe('one token left of the dotted centre, not on it, so the band catches only part of that look');
    // The head mean looking at the next token (head 1's rows as the mean): the diagonal step says where its line runs.
    const world = (x: PolicyResult, head: number) => ({
      ...start,
      fromModel: true,
      head,
      finalLayer: 0,
      results: [{ ...x, policy: 'full', layer: 0, diagonal: 0.4 }],
    });
    const nextMean = {
      ...r,
      tokens: Array.from({ length: 8 }, () => ({ text: 'x', category: 'prior', message: 1 })),
      ratios: start.results[0]!.ratios,
      attention: { ...r.attention!, mean: slab(data, 3, 8, 5) },
    } as unknown as PolicyResult;
    expect(bandLine(nextMean)).toBe(1);
    expect(step('diagonal').reveal!(world(nextMean, 0) as LessonWorld, null).said).toContain(
      'Its brightest cells run one token right of the dotted centre: each row computes the next word',
    );
    // Two tokens ahead, at the edge of a band of radius 2: said as running ahead of the dotted line, at the band's edge.
    const twoAhead = new Float64Array(24);
    for (let i = 0; i < 3; i++) twoAhead[i * 8 + Math.min(7, 4 + i)] = 1;
    const aheadMean = { ...nextMean, radius: 2, attention: { ...nextMean.attention!, mean: slab(twoAhead, 3, 8, 5) } } as unknown as PolicyResult;
    expect(bandLine(aheadMean)).toBe(2);
    // Why, in the fold: the card says only where.
    const ahead = step('diagonal').reveal!(world(aheadMean, 0) as LessonWorld, null);
    expect(ahead.said).toContain(
      "Its brightest cells sit a few tokens right of the dotted line, up to the band's edge: the band counts them, as it counts anything within 2 tokens of the line.",
    );
    expect(ahead.more).toContain(
      'Each row is a token just written; a copier reads the word that comes next in the prior assistant answer, a little past its own place.',
    );
    // Without the answer's rows of attention: null, and the reveal says nothing of a line.
    expect(bandLine({ ...r, attention: undefined })).toBeNull();
  });

  it('says an upright stripe in the band: row after row on one token, named by turn and line (hand-computed)', () => {
    // 9 tokens: an earlier answer "Been at: 22" at 2–5 (turn 1), the answer at 6–8 (3 rows), r = 2. Every row gives
    // token 5 ("22") 0.5 of its attention, and row i gives token 2 + i 0.1 (the in-step token).
    const data = new Float64Array(3 * 9);
    for (let i = 0; i < 3; i++) data.set([0.1], i * 9 + 2 + i);
    for (let i = 0; i < 3; i++) data.set([0.5], i * 9 + 5);
    const texts = ['<s>', 'go', 'Been', ' at', ':', ' 22', 'Been', ' at', ':'];
    const cats = ['sink', 'user', 'prior', 'prior', 'prior', 'prior', 'current', 'current', 'current'];
    const r = {
      ...figures('full', 0.2, 0.4),
      radius: 2,
      tokens: texts.map((text, i) => ({ text, category: cats[i], message: [0, 0, 1, 1, 1, 1, 2, 2, 2][i] })),
      query: { start: 6, end: 9 },
      messages: [
        { category: 'user', turn: 1, span: { start: 0, length: 2 }, content: { start: 1, length: 1 } },
        { category: 'prior', turn: 1, span: { start: 2, length: 4 }, content: { start: 2, length: 4 } },
        { category: 'current', turn: 2, span: { start: 6, length: 3 }, content: { start: 6, length: 3 } },
      ],
      diagonalPerAnswer: [{ message: 1 }],
      attention: { layer: 0, mean: slab(data, 3, 9, 6), perHead: null },
    } as unknown as PolicyResult;
    // Band: row 0 keys 2–4 (token 5 is 3 off: outside), rows 1 and 2 reach token 5. Masses over 3 rows: token 5 gets
    // (0.5 + 0.5) / 3, tokens 2, 3, 4 each 0.1 / 3; total 1.3 / 3, so token 5 has 1 / 1.3 = 77 % of the band.
    const top = bandStripes(r)!;
    expect(top[0]!.k).toBe(5);
    expect(top[0]!.share).toBeCloseTo(1 / 1.3, 9);
    // Two rows only: not a stripe yet (3 rows are asked for).
    expect(stripesPhrase(r)).toBeNull();
    const wide = { ...r, radius: 3 } as PolicyResult;
    expect(stripesPhrase(wide)).toEqual({
      said: 'in an upright stripe on "22" (turn 1\'s answer, Been at line)',
      more: 'That token gets 83 % of the attention in the band; the band counts only the part of a stripe within 3 tokens of the dotted line.',
    });
    // The lesson's zoom opens on the last prior assistant answer: a stripe on an earlier one is said to lie outside it.
    const later = { ...wide, diagonalPerAnswer: [{ message: 1 }, { message: 2 }] } as unknown as PolicyResult;
    expect(stripesPhrase(later)!.said).toContain('on "22" (turn 1\'s answer, Been at line, outside the zoom)');
  });

  it('shows the answers a step wrote, labelled, only once written', () => {
    expect(writtenIn(step('generate'), start)).toEqual([]);
    expect(writtenIn(step('generate'), { ...start, generated: { full: 'Move: south', de: 'Move: east' } })).toEqual([
      { label: 'Full', text: 'Move: south' },
      { label: 'DE (no earlier turn, so no list of cells to copy: its list is a guess)', text: 'Move: east' },
    ]);
    expect(writtenIn(step('cpl'), { ...start, generated: { full: 'Move: south' } })).toEqual([]);
    expect(writtenIn(step('cpl'), { ...start, generated: { full: 'Move: south' }, generatedB: { full: 'Move: north' } })).toEqual([
      { label: 'Demo model', text: 'Move: south' },
      { label: 'CPL twin', text: 'Move: north' },
    ]);
    const offAnswers = { withAll: 'Move: south', withOff: 'Move: north', off: ['L1·H0', 'L1·H2'], control: { off: ['L1·H3'], withOff: 'Move: south' } };
    expect(writtenIn(step('heads'), { ...start, offAnswers }).map((x) => x.label)).toEqual([
      'Every head on',
      'L1·H0, L1·H2 off (most copying: highest diagonal ratio)',
      'L1·H3 off (lowest)',
    ]);
    // A list of cells other than with every head on: named beside its answer (here the top heads' run of 22s).
    const lists = {
      withAll: 'Been at: 3 4 22.\nAction -> south',
      withOff: 'Been at: 3 4 22 22 22 22.\nAction -> north',
      off: ['L1·H0'],
      control: { off: ['L1·H3'], withOff: 'Been at: 3 4 22.\nAction -> south' },
    };
    expect(writtenIn(step('heads'), { ...start, offAnswers: lists }).map((x) => x.label)).toEqual([
      'Every head on',
      'L1·H0 off (most copying: highest diagonal ratio; its list of cells comes out different: the model, missing parts, not the page)',
      'L1·H3 off (lowest)',
    ]);
    // A step without an action of its own writes nothing.
    expect(writtenIn(step('shares'), { ...start, generated: { full: 'Move: south' } })).toEqual([]);
  });

  it('says how far the answers with heads off copy the previous one, once where they agree', () => {
    expect(copiedAlike([11, 11, 11], true)).toBe('All three copy its first 11 words alike, then go their own ways.');
    expect(copiedAlike([11, 11], false)).toBe('Both copy its first 11 words alike.');
    expect(copiedAlike([4, 2, 4], true)).toBe(
      'Words copied from it before an answer first differs: 4 with every head on, 2 with the most-copying heads off, 4 with the lowest off.',
    );
  });

  it('scores the quiz and names the steps to revisit', () => {
    expect(quizScore({})).toEqual({ right: 0, answered: 0, revisit: [] });
    const missed = QUIZ.findIndex((q) => q.question.includes('8 tokens to its right'));
    const wrong = Object.fromEntries(QUIZ.map((q, i) => [i, i === missed ? (q.correct + 1) % q.options.length : q.correct]));
    expect(quizScore(wrong)).toEqual({ right: QUIZ.length - 1, answered: QUIZ.length, revisit: ['diagonal'] });
    // The right option is not given away by its length (the longest, or the shortest, in at most a third of the
    // questions, as chance would have it), nor by always sitting in the same place.
    for (const pick of [Math.max, Math.min]) {
      const given = QUIZ.filter((x) => x.options[x.correct]!.length === pick(...x.options.map((o) => o.length)));
      expect(given.length, `${pick.name}: ${given.map((x) => x.question).join('\n')}`).toBeLessThanOrEqual(Math.ceil(QUIZ.length / 3));
    }
    for (const k of [0, 1, 2]) expect(QUIZ.filter((x) => x.correct === k).length, `right option ${k}`).toBeGreaterThanOrEqual(3);
  });

  it("works Clip's row out in words: the turns it shows, as the table marks them", () => {
    const n = { window: 6, clipAt: 6, clipTo: 1 };
    // Answering turn 10: cut back to turn 6 when the history reached 6 turns (at turn 7), then grown to 6–9.
    expect(clipWorked(10, n)).toBe(
      'Answering turn 10, Clip-6→1 shows turns 6 to 9: each time the history reached 6 turns it was cut back to the last 1, then grew again.',
    );
    expect(clipWorked(7, n)).toBe(
      'Answering turn 7, Clip-6→1 shows turn 6: each time the history reached 6 turns it was cut back to the last 1, then grew again.',
    );
    // Before it cuts: nothing to work out.
    expect(clipWorked(6, n)).toBeNull();
  });

  it('reads the maze the user turns tell: the path, the walls named, the goal, the last run at one cell', () => {
    const sys = 'You are a maze agent on a 6x6 grid; cell = 6y + x + 1.';
    const obs = [
      'Round 1. Position (2,0). Walls: north. Goal: (3,4).',
      'Round 2. Position (3,0). Walls: none. Goal: (3,4).',
      'Round 3. Position (3,1). Walls: south, east. Goal: (3,4).',
      'Round 4. Position (3,1). Walls: south, east. Goal: (3,4). You hit a wall.',
      'Round 5. Position (3,1). Walls: south, east. Goal: (3,4). You hit a wall.',
    ];
    expect(mazeTrail(sys, obs)).toEqual({
      size: 6,
      steps: [
        { x: 2, y: 0, walls: ['north'] },
        { x: 3, y: 0, walls: [] },
        { x: 3, y: 1, walls: ['south', 'east'] },
        { x: 3, y: 1, walls: ['south', 'east'] },
        { x: 3, y: 1, walls: ['south', 'east'] },
      ],
      goal: { x: 3, y: 4 },
      stuck: { from: 3, to: 5 },
      numbering: { a: 6, b: 1 },
      drift: null,
    });
    // The answers' lists are the model's notes: (2,0) is 3, (3,0) 4, (3,1) 10. Lists that match the path: no drift.
    const said = (cells: string) => `Been at: ${cells}.\nThought: south.\nAction -> south`;
    const exact = ['3', '3 4', '3 4 10', '3 4 10 10', '3 4 10 10 10'].map(said);
    expect(mazeTrail(sys, obs, exact)!.drift).toBeNull();
    // Turn 4 names cell 10 once where it stood there twice; turn 5 adds it again: uneven in the run at one cell.
    const loose = ['3', '3 4', '3 4 10', '3 4 10', '3 4 10 10'].map(said);
    expect(mazeTrail(sys, obs, loose)!.drift).toEqual({ turn: 4, uneven: true });
    // Every list in the run short alike (none grows): the turn alone.
    expect(mazeTrail(sys, obs, ['3', '3 4', '3 4 10', '3 4 10', '3 4 10'].map(said))!.drift).toEqual({ turn: 4, uneven: false });
    // Answers with no list, or no numbering to check them by: nothing said.
    expect(mazeTrail(sys, obs, ['east', 'south'])!.drift).toBeNull();
    expect(mazeTrail(null, obs, loose)!.drift).toBeNull();
    // The system prompt's numbering, as the answers' lists use it: (3,3) is 22.
    expect(cellNumber({ a: 6, b: 1 }, 3, 3)).toBe(22);
    expect(mazeTrail(null, obs)!.numbering).toBeNull();
    // No grid size given: the largest coordinate tells it; no run at one cell: none said.
    expect(mazeTrail(null, obs.slice(0, 2))).toMatchObject({ size: 5, stuck: null });
    // Not a maze, or one too large (or out of its own grid) to draw: nothing.
    expect(mazeTrail(sys, ['Plan a trip to Lisbon.'])).toBeNull();
    expect(mazeTrail('a 500x500 grid', ['Position (400,2). Goal: (1,1).'])).toBeNull();
    expect(mazeTrail(sys, ['Position (9,2). Goal: (1,1).'])).toBeNull();
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
