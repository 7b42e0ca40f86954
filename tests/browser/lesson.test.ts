import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAnswer, withAnswer } from '../../src/analysis/answer';
import { turnsSweep } from '../../src/analysis/sweep';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { selectTurn } from '../../src/conversation/turns';
import { applyPolicy } from '../../src/context/apply';
import { parsePolicy } from '../../src/context/policy';
import { asRenderer, renderContext } from '../../src/context/render';
import { openModel } from '../../src/runtime/open-model';
import { setupLine } from '../../src/state/lesson-setup';
import { turnByTurn } from '../../src/views/lesson/cpl';
import { listWrong, moveOf, moveClause, towardGoal, wallsIn } from '../../src/views/lesson/moves';
import { scoreboard, wallTally } from '../../src/views/lesson/wall-counts';
import { headsTally, stillPct } from '../../src/views/lesson/heads-tally';
import { WALL_COUNTS } from '../../src/views/lesson/wall-records';
import { recapReveal, recapRows } from '../../src/views/lesson/recap';
import { CLOSED_LOOP, type Player, playTally } from '../../src/views/lesson/closed-loop';
import { hiddenTally, latestTally } from '../../src/views/lesson/hidden-counts';
import { analyzeHeads } from '../../src/analysis/heads';
import { bottomHeads, headLabel, headMask, inHeadOrder, topHeads } from '../../src/analysis/ablation';
import { LESSON, type LessonStep, QUIZ } from '../../src/views/lesson/steps';
import { evidenceRows } from '../../src/views/lesson/evidence';
import { stepNo } from '../../src/views/lesson/order';
import { numbersOf, sentencesOf, unbroken, WORDS } from '../../src/views/lesson/world';
import { startAppServer } from '../helpers/app-server';
import { axeViolations } from '../helpers/axe';
import { pValue } from '../../src/views/lesson/LuckMeter';
import { launchChromium } from '../helpers/chromium';

const SHOTS = process.env.SCREENSHOT_DIR;

/**
 * The CPL step's story computed apart from the page: both demo models on onnxruntime-node write the wall's last
 * answer under Full, and each is scored turn by turn with its own answer last, as the page scores them.
 */
async function cplStory(): Promise<{ mine: string; twin: string; count: ReturnType<typeof turnByTurn> }> {
  const wall = parseConversation(readFileSync('examples/maze-wall.json', 'utf8')).conversation!;
  const turns = wall.messages.filter((m) => m.role === 'assistant').length;
  const [base, cpl] = await Promise.all(['models/inertia-demo', 'models/inertia-demo-cpl'].map((d) => openModel(dirSource(d))));
  const mine = await generateAnswer(base!, wall, 'full', turns);
  const twin = await generateAnswer(cpl!, wall, 'full', turns);
  const count = turnByTurn(await turnsSweep(base!, withAnswer(wall, turns, mine), 'full'), await turnsSweep(cpl!, withAnswer(wall, turns, twin), 'full'));
  await Promise.all([base!.session.release(), cpl!.session.release()]);
  return { mine, twin, count };
}
/**
 * The heads step's story computed apart from the page: the demo model on onnxruntime-node writes the wall episode's last
 * answer with every head on, then with the last layer's top 3 heads by diagonal ratio switched off (zero), then its
 * 3 lowest, and the page's sentence on where each move leads is built from those answers.
 */
async function headsStory(): Promise<[moves: string, named: string]> {
  const wall = parseConversation(readFileSync('examples/maze-wall.json', 'utf8')).conversation!;
  const turns = wall.messages.filter((m) => m.role === 'assistant').length;
  const asked = wall.messages.filter((m) => m.role === 'user').at(-1)!.content;
  const [walls, toGoal] = [wallsIn(asked), towardGoal(asked)];
  const model = await openModel(dirSource('models/inertia-demo'), { headFigures: true });
  const last = (await analyzeHeads(model, wall, 'full')).slice(-1);
  const [top, bottom] = [topHeads(last, 3), bottomHeads(last, 3)];
  const withAll = await generateAnswer(model, wall, 'full', turns);
  const { numLayers, numHeads } = model.session.spec;
  model.session.headMask = headMask(top, numLayers, numHeads);
  const withOff = await generateAnswer(model, wall, 'full', turns);
  model.session.headMask = headMask(bottom, numLayers, numHeads);
  const withControl = await generateAnswer(model, wall, 'full', turns);
  await model.session.release();
  // The page lists the heads off in layer and head order.
  const listed = (hs: typeof top) => inHeadOrder(hs).map(headLabel).join(', ');
  const then = (x: string) => moveClause(x, walls, toGoal).replace(/^moves /, '');
  // Whose list of cells comes out other than with every head on: the top set's alone, or both.
  const [topWrong, controlWrong] = [listWrong(withOff, withAll), listWrong(withControl, withAll)];
  return [
    `With every head on the model ${moveClause(withAll, walls, toGoal)}; with the most-copying heads off, ${then(withOff)}${
      topWrong && !controlWrong ? ', and its list of cells comes out different' : ''
    }. With the lowest off, ${then(withControl)}${topWrong && controlWrong ? '; both change its list of cells' : ''}.`,
    `Switched off (named by layer and head, each counted from 0, so L1·H0 is the last layer's 1st head): ${listed(top)} (most copying: highest diagonal ratio); ${listed(bottom)} (lowest), in the last layer.`,
  ];
}
/**
 * The wall episode under Full as the demo model reads it on onnxruntime-node, apart from the page: the rendered
 * context, the last answer's span, and its rows of the last layer's head-mean attention (row i: the answer's i-th).
 */
async function wallAnswerRows(): Promise<{ r: ReturnType<typeof renderContext>; answer: { start: number; length: number }; a: Float32Array }> {
  const wall = parseConversation(readFileSync('examples/maze-wall.json', 'utf8')).conversation!;
  const model = await openModel(dirSource('models/inertia-demo'));
  const r = renderContext(asRenderer(model.tokenizer), applyPolicy(wall, selectTurn(wall), parsePolicy('full')));
  const answer = r.contentSpans.at(-1)!;
  const res = await model.session.forward({ ids: r.ids, attnRows: [answer.start, answer.start + answer.length], skipLogits: true });
  await model.session.release();
  return { r, answer, a: res.attention.at(-1)!.mean.data };
}
/**
 * The diagonal step's split computed apart from the page: the demo model on onnxruntime-node reads the wall episode
 * under Full; each row of the answer adds the attention within r = 5 of its offset in every prior assistant answer,
 * and the rows of its last two lines (thought and move) are summed apart from those before; each over all rows;
 * beside each, what attention spread evenly over the tokens each row sees would put in the band.
 */
async function lineSplit(): Promise<{ before: number; last: number; evenBefore: number; evenLast: number; rowsBefore: number; rowsLast: number }> {
  const { r, answer, a } = await wallAnswerRows();
  const S = r.ids.length;
  const priors = r.contentSpans.filter((c) => c.start < answer.start && r.categories[c.start] === 'prior');
  const text = r.tokenTexts.slice(answer.start, answer.start + answer.length);
  const lineOf = text.map((_, i) => text.slice(0, i).join('').split('\n').length - 1);
  const lines = text.join('').split('\n').length;
  const part = { before: 0, last: 0, evenBefore: 0, evenLast: 0, rowsBefore: 0, rowsLast: 0 };
  for (let i = 0; i < answer.length; i++) {
    // The band's attention, and its cells over the tokens the row sees (what an even spread gives it).
    let [band, cells] = [0, 0];
    for (const p of priors)
      for (let j = Math.max(0, i - 5); j <= Math.min(p.length - 1, i + 5); j++) {
        band += a[i * S + p.start + j]!;
        cells++;
      }
    const last = lineOf[i]! >= lines - 2;
    part[last ? 'last' : 'before'] += band / answer.length;
    part[last ? 'evenLast' : 'evenBefore'] += cells / (answer.start + i + 1) / answer.length;
    part[last ? 'rowsLast' : 'rowsBefore']++;
  }
  return part;
}
/**
 * The diagonal step's stripe computed apart from the page: the token of a message's text before the last answer, sink
 * aside, that the answer's rows give the most of their last layer's head-mean attention, averaged over those rows.
 */
async function brightestStripe(): Promise<{ text: string; share: number; marker: { text: string; share: number } }> {
  const { r, answer, a } = await wallAnswerRows();
  let best = { k: -1, share: -1 };
  // The conversation's words: the text of each message before the answer, not the template's markers.
  const inText = new Set(r.contentSpans.filter((c) => c.start < answer.start).flatMap((c) => Array.from({ length: c.length }, (_, j) => c.start + j)));
  for (let k = 0; k < answer.start; k++) {
    if (r.categories[k] === 'sink' || !inText.has(k)) continue;
    let share = 0;
    for (let i = 0; i < answer.length; i++) share += a[i * r.ids.length + k]! / answer.length;
    if (share > best.share) best = { k, share };
  }
  // And the chat format's tokens (outside every message's text, the sink aside): the brightest of them.
  let marker = { k: -1, share: -1 };
  for (let k = 0; k < answer.start; k++) {
    if (r.categories[k] === 'sink' || inText.has(k)) continue;
    let share = 0;
    for (let i = 0; i < answer.length; i++) share += a[i * r.ids.length + k]! / answer.length;
    if (share > marker.share) marker = { k, share };
  }
  return { text: r.tokenTexts[best.k]!.trim(), share: best.share, marker: { text: r.tokenTexts[marker.k]!.trim(), share: marker.share } };
}
/** A step's index in the walk, by its id. */
const at = (id: Parameters<typeof stepNo>[0]) => stepNo(id) - 1;
/** What a newcomer stops at: a paper's section, figure or table. */
const PAPER_TALK = /paper \d|§|\bfig(ure)?\.? ?\d|\btable \d|\bsection\b/i;
const words = (t: string | null) => (t ?? '').split(/\s+/).filter(Boolean).length;
/** A reveal as the screenshots' reader gets it: the point, the sentence shown, what to do then, and what the fold holds. */
async function revealAsRead(card: Locator): Promise<string> {
  const text = async (id: string) => ((await card.getByTestId(id).count()) ? ((await card.getByTestId(id).textContent()) ?? '') : '');
  // The fold as opened: its words, the pictures it holds (by their captions) and the figures behind them.
  // Each with its key, so the reader of the texts meets what the learner reads under it (the luck meter's coin toss).
  const pictures = (
    await card
      .locator('[data-testid="lesson-more"] figure')
      .evaluateAll((fs) =>
        fs.map((f) => [f.querySelector(':scope > figcaption')?.textContent ?? '', [...f.querySelectorAll('.bar-key')].map((k) => k.textContent).join(' ')]),
      )
  )
    .map(([c, k]) => `[picture: ${c}${k ? `; key: ${k}` : ''}] `)
    .join('');
  // The fold's tables (the counts, the check's comparisons), row by row, as a reader scans them.
  const counts = (
    await card
      .locator('[data-testid="lesson-more"] table')
      .evaluateAll((ts) =>
        ts.map(
          (t) =>
            `[table: ${t.querySelector('caption')?.textContent}; ${[...t.querySelectorAll('tr')].map((r) => [...r.cells].map((c) => c.textContent).join(' | ')).join(' / ')}]`,
        ),
      )
  ).join(' ');
  const fold = (await card.getByTestId('lesson-more').count())
    ? ` [folded under "${await card.locator('[data-testid="lesson-more"] > summary').textContent()}":] ${await text('lesson-said-rest')} ${pictures}${await text('lesson-figures')}${counts ? ` ${counts}` : ''}`
    : '';
  // The closing lists are shown, not folded: listed before the fold.
  const points = (await card.getByTestId('lesson-point').allTextContents()).map((t) => `- ${t}\n`).join('');
  return `**${await text('lesson-takeaway')}** ${await text('lesson-lead')}${(await text('lesson-caveat')) ? ` ${await text('lesson-caveat')}` : ''}${(await text('lesson-next')) ? ` ${await text('lesson-next')}` : ''}${points ? `\n\n${points}\n` : ''}${fold}`;
}

/**
 * A step's action as a person on a phone does it, after "take me there" brought its target above the card: a tap
 * on the target (the quiz takes its right answers). The card's
 * own actions (a guess, an answer written) are the walk's.
 */
async function tapAction(page: Page, card: Locator, s: LessonStep): Promise<void> {
  if (s.id === 'case' || s.guess || s.act) return;
  await card.getByTestId('lesson-go').click();
  const target = page.locator(s.target).first();
  if (s.quiz) for (const [i, q] of s.quiz.entries()) await card.locator('fieldset').nth(i).locator('input[type="radio"]').nth(q.correct).check();
  else if (s.id === 'heatmap') {
    // The card asks to point at the arrow's cell: the tap lands on it, and the line under the heatmap reads it.
    await target.waitFor({ timeout: 180_000 });
    const [x, y] = ((await target.getAttribute('data-mark-px')) ?? '').split(',').map(Number);
    await target.click({ position: { x: x!, y: y! } });
    await expect.poll(() => page.getByTestId('heatmap-hover-full').textContent()).toMatch(/^(locked · )?the token ":" .* gives 12\.5 %/);
  } else await target.click({ timeout: 180_000 });
}

/** Presses Tab (Shift+Tab when the target comes before the focus) until `target` has the focus: what a keyboard user does. */
async function tabTo(page: Page, target: Locator, max = 400): Promise<void> {
  const before = await target.evaluate((el) =>
    document.activeElement ? (el.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 : false,
  );
  const key = before ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${max} × ${key} did not reach ${target}`);
}

describe('the lesson, walked with the keyboard only', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  beforeAll(async () => {
    app = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  it('every panel, control and figure has its "what is this", and each opens to a definition with its source', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    await page.getByTestId('turns-chart').waitFor({ timeout: 120_000 });
    const missing = await page.evaluate(() => {
      const out: string[] = [];
      const has = (el: Element | null) => el !== null && el.querySelector('[data-explain]') !== null;
      // Every visible panel heading, every figure row, every control of the view.
      for (const h of document.querySelectorAll('main h2:not(.sr-only)'))
        if (!h.closest('[data-testid="lesson-card"]') && !has(h)) out.push(`heading "${h.textContent}"`);
      for (const th of document.querySelectorAll('[data-testid="figures"] th[scope="row"]')) if (!has(th)) out.push(`figure "${th.textContent}"`);
      const controls = [...document.querySelectorAll('.controls select, .controls input')].concat(
        [...document.querySelectorAll('.controls button')].filter((b) => /^Generate/.test(b.textContent ?? '')),
      );
      for (const c of controls) {
        const next = (c.closest('label') ?? c).nextElementSibling;
        if (!next?.matches('.explain'))
          out.push(`control "${(c.getAttribute('aria-label') ?? c.closest('label')?.textContent ?? c.textContent ?? '').slice(0, 40)}"`);
      }
      return out;
    });
    expect(missing).toEqual([]);
    const buttons = page.locator('main [data-explain]');
    const n = await buttons.count();
    expect(n).toBeGreaterThan(20);
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      if (!(await b.isVisible())) continue; // inside a closed panel (the raw forward pass)
      const id = await b.getAttribute('data-explain');
      await b.click();
      const box = page.getByTestId(`explain-${id}`).first();
      expect(await box.textContent()).toMatch(/From: .+\./);
      await b.click();
    }
    await page.close();
  }, 300_000);

  it('walks every step by keyboard within five keys per action: each step sets its own state, hides what it asks to guess, and reveals the figures on screen', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    await page.getByText(/scoring every turn/).waitFor({ state: 'detached', timeout: 120_000 });
    const card = page.getByTestId('lesson-card');
    const next = card.getByRole('button', { name: /^(Next|Finish)$/ });
    const title = page.getByTestId('lesson-title');
    const figures = page.locator('[data-lesson="figures"]');
    const shots = SHOTS ? join(SHOTS, 'lesson') : null;
    if (shots) mkdirSync(shots, { recursive: true });
    if (shots) rmSync(join(shots, 'desktop-texts.md'), { force: true });
    /** Every key pressed in a step's action, counted (the budget is five from the card's title). */
    let keys = 0;
    const press = async (key: string, times = 1) => {
      for (let i = 0; i < times; i++) {
        keys++;
        await page.keyboard.press(key);
      }
    };
    const focused = () => page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? 'none');

    await tabTo(page, page.getByTestId('learn'));
    await page.keyboard.press('Enter');

    /** The step's "take me there", then `act` (its keys counted), then Next; checks along the way. */
    // Sentences longer than the cards allow, gathered over the walk so that one run names them all.
    const long: string[] = [];
    const crowded: string[] = [];
    // The hide step's first reveal (AO), kept for the texts file: written there between the step's text and its last reveal.
    const step = async (n: number, act: () => Promise<void>, waitFor?: Locator, ready?: Locator) => {
      const s = LESSON[n]!;
      await expect.poll(() => title.textContent()).toBe(s.title);
      expect(await title.evaluate((el) => el === document.activeElement), `step ${n + 1} has the focus`).toBe(true);
      // The step's own state, said in one line and set on the page.
      expect(await card.getByTestId('lesson-setup').textContent()).toBe(setupLine(s.setup));
      await expect.poll(() => page.getByRole('combobox', { name: 'example', exact: true }).inputValue()).toBe(s.setup.example);
      await expect.poll(() => page.getByRole('combobox', { name: 'scored turn', exact: true }).inputValue()).toBe('');
      // Compare models waits covered until the step that explains it; from there its box says whether models are compared.
      if (await page.getByTestId('covered-compare-models').count()) expect(s.setup.compareModels, `step ${n + 1} compare models`).not.toBe(true);
      else expect(await page.getByTestId('compare-models').isChecked(), `step ${n + 1} compare models`).toBe(s.setup.compareModels === true);
      // The turn-by-turn charts wait covered until the twin's step reads them (before it they sat unexplained behind the card).
      if (n > 0 && n < LESSON.findIndex((x) => x.id === 'cpl'))
        expect(await page.getByTestId('covered-charts').count(), `step ${n + 1}: the charts covered`).toBe(1);
      // What the step brings into view on entry (the wall's turns, not the list's top).
      if (s.show) {
        const inView = () =>
          page.locator(s.show!).evaluate((el) => {
            const b = el.getBoundingClientRect();
            return b.top >= 0 && b.top < innerHeight;
          });
        await expect.poll(inView, { message: `step ${n + 1} shows ${s.show}`, timeout: 10_000 }).toBe(true);
      }
      // Plain words on the page too.
      expect(await card.getByTestId('lesson-text').textContent()).not.toMatch(PAPER_TALK);
      // A step with nothing to do but read (the recap) is done on entry; every other waits for its action.
      if (n > 0 && !s.reading) expect(await next.isDisabled(), `step ${n + 1} (${s.id}) waits for its action`).toBe(true);
      if (s.guess) {
        // Nothing to read the answer from before the guess: the figures, charts and grid are covered.
        await page.getByTestId('covered-figures').waitFor();
        expect(await page.getByTestId('figures').count()).toBe(0);
        expect(await page.getByTestId('covered-charts').count()).toBe(1);
      }
      // The figures as the step set them up: a reveal may compare with them after the action changed the page.
      const before = s.setup.compareModels || s.guess ? '' : ((await figures.textContent()) ?? '');
      // A person waits for the control to be ready (the grid's figures, the model) before going to it.
      if (ready) await expect.poll(() => ready.isEnabled(), { timeout: 180_000 }).toBe(true);
      // The page as the step opens, before its action (the grid to click, the slider): for the person who looks.
      if (shots) await page.waitForTimeout(900);
      if (shots) await page.screenshot({ path: join(shots, `desktop-${String(n + 1).padStart(2, '0')}-${s.id}-before.png`) });
      keys = 0;
      await press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('lesson-go');
      await press('Enter');
      await act();
      expect(keys, `step ${n + 1} (${s.id}): keys from the card to its action`).toBeLessThanOrEqual(5);
      expect(await focused(), `step ${n + 1}: the focus is not lost`).not.toBe('body');
      if (waitFor) await waitFor.waitFor({ timeout: 120_000 });
      await expect.poll(() => next.isDisabled(), { timeout: 180_000 }).toBe(false);
      const reveal = card.getByTestId('lesson-reveal');
      if (s.reveal) {
        await reveal.waitFor({ timeout: 120_000 });
        // Every figure the reveal quotes is on the figures panel, as written there now or when the step began.
        const unmatched = async () => {
          const quoted = ((await reveal.textContent()) ?? '').match(/\d+\.\d{2}\u00a0%/g) ?? [];
          const shown = ((await figures.textContent()) ?? '') + before;
          return quoted.filter((q) => !shown.includes(q));
        };
        await expect.poll(unmatched, { message: `step ${n + 1} (${s.id}) quotes only figures on screen`, timeout: 60_000 }).toEqual([]);
        expect(await reveal.textContent()).not.toMatch(PAPER_TALK);
        // Short enough to be read: what the reveal says on the card, its figures folded.
        const said = (await card.getByTestId('lesson-reveal').getAttribute('data-said')) ?? '';
        expect(words(said), `step ${n + 1} (${s.id}) reveal words`).toBeLessThanOrEqual(WORDS.said);
        // In short sentences too, as the step texts.
        const saidParts = sentencesOf(said);
        expect(saidParts.length, `step ${n + 1} (${s.id}) reveal sentences`).toBeLessThanOrEqual(WORDS.saidSentences);
        long.push(...saidParts.filter((one) => words(one) > WORDS.sentence).map((one) => `step ${n + 1} (${s.id}) reveal: ${one}`));
        // Each reveal leads with its point, in one short bold line.
        const takeaway = (await card.getByTestId('lesson-takeaway').textContent()) ?? '';
        expect(words(takeaway), `step ${n + 1} (${s.id}) takeaway words`).toBeLessThanOrEqual(WORDS.takeaway);
        // One plain claim: one sentence, no colon chain (a teacher read "X: Y; Z" headlines as three claims).
        expect(sentencesOf(takeaway).length, `step ${n + 1} (${s.id}) takeaway sentences`).toBeLessThanOrEqual(1);
        expect(takeaway, `step ${n + 1} (${s.id}) takeaway`).not.toMatch(/[:;]/);
        // Not under the card's sticky top (its step and title), where its first line showed cut.
        const clear = async () => {
          const [t, top] = [await card.getByTestId('lesson-takeaway').boundingBox(), await card.locator('.lesson-top').boundingBox()];
          return !t || !top || t.y >= top.y + top.height - 1;
        };
        await expect.poll(clear, { message: `step ${n + 1} (${s.id}): the takeaway clear of the card's top`, timeout: 10_000 }).toBe(true);
        // A few figures unfolded, the rest under "The figures behind this": collected, named together at the end.
        // Unfolded: the takeaway and the one sentence under the picture.
        const lead = (await card.getByTestId('lesson-lead').textContent()) ?? '';
        const quoted = numbersOf(`${takeaway} ${lead}`);
        expect(words(lead), `step ${n + 1} (${s.id}) lead words`).toBeLessThanOrEqual(WORDS.lead);
        // The caveat, unfolded too: one short sentence, with a figure or two at most.
        const caveat = (await card.getByTestId('lesson-caveat').count()) ? ((await card.getByTestId('lesson-caveat').textContent()) ?? '') : '';
        expect(words(caveat), `step ${n + 1} (${s.id}) caveat words`).toBeLessThanOrEqual(WORDS.caveat);
        expect(sentencesOf(caveat).length, `step ${n + 1} (${s.id}) caveat sentences`).toBeLessThanOrEqual(1);
        expect(numbersOf(caveat).length, `step ${n + 1} (${s.id}) caveat figures`).toBeLessThanOrEqual(2);
        if (quoted.length > WORDS.numbers) crowded.push(`step ${n + 1} (${s.id}): ${quoted.join(', ')}`);
      }
      const text = (await card.getByTestId('lesson-text').textContent()) ?? '';
      expect(words(text), `step ${n + 1} (${s.id}) text words`).toBeLessThanOrEqual(WORDS.text);
      // In short sentences, as rendered (the diagonal step's chance is filled in).
      const parts = sentencesOf(text);
      expect(parts.length, `step ${n + 1} (${s.id}) sentences`).toBeLessThanOrEqual(WORDS.sentences);
      long.push(...parts.filter((one) => words(one) > WORDS.sentence).map((one) => `step ${n + 1} (${s.id}): ${one}`));
      // The card as read, for the person who looks at the screenshots.
      if (shots)
        appendFileSync(
          join(shots, 'desktop-texts.md'),
          `## ${n + 1}. ${s.title}\n\n${await card.getByTestId('lesson-text').textContent()}\n\n> ${s.reveal ? await revealAsRead(card) : ''}\n\n`,
        );
      // Beside the card the page narrows: the card covers none of it.
      const [mainBox, cardBox] = [await page.locator('main.with-lesson').boundingBox(), await card.boundingBox()];
      expect(mainBox!.x + mainBox!.width, `step ${n + 1}: the page ends left of the card`).toBeLessThanOrEqual(cardBox!.x);
      if (shots) await page.waitForTimeout(900); // the region's smooth scroll, then the picture
      if (shots) await page.screenshot({ path: join(shots, `desktop-${String(n + 1).padStart(2, '0')}-${s.id}.png`) });
      await tabTo(page, next);
      await page.keyboard.press('Enter');
    };
    // A guess in per cent (the slider where it starts, as the step's first picture shows it, then its lock), or among
    // choices (Tab to "more than an even share", which locks it).
    const guess = async (among = false) => {
      if (among) await press('Tab');
      await press('Tab');
      await press('Enter');
    };

    await step(0, async () => {
      // The step opened the list of turns to read; "take me there" went to it.
      expect(await page.locator('details.turns').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      // To be read, not edited: the turns as text under who wrote them, no role menus, remove buttons or text boxes.
      expect(await page.getByTestId('turn-transcript').locator('li').count()).toBe(21);
      expect(await page.locator('details.turns textarea, details.turns select').count()).toBe(0);
      expect(await page.getByTestId('turn-transcript').locator('li').last().textContent()).toMatch(/^assistant · turn 10 · the answer scoredBeen at:/);
      // The maze drawn from the user turns: the example stands at (3,3) from its 5th turn to its 10th.
      expect(await card.getByTestId('lesson-maze').locator('figcaption').textContent()).toMatch(
        /from turn 5 to turn 10 it stands at the same cell\. The "Been at" lists are the model's own notes, kept loosely: from turn 6 they stop matching the path: standing at cell 22, some answers add it to the list again and some do not\.$/,
      );
      expect(await card.getByTestId('lesson-maze-agent').getAttribute('cx')).toBe(String(3 * 28 + 14)); // cells of 28 px
      // The cells it stood on carry the numbers the answers' lists use (the system prompt's cell = 6y + x + 1).
      expect(await card.getByTestId('lesson-maze-number').allTextContents()).toEqual(['3', '4', '10', '16', '22']);
    });

    await step(
      1,
      async () => {
        await press('Enter');
        // While it writes, the focus stays on the button.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('lesson-act');
        // Then how many tokens, how fast, and why it stopped.
        await expect
          .poll(() => page.getByTestId('generation-done').textContent(), { timeout: 120_000 })
          .toMatch(
            /^The last answer written \(DE\): \d+ tokens? in \d+\.\d s( \([\d.]+ tokens a second\))?; it stopped (because the model ended its answer|at the limit of 96 tokens)\.$/,
          );
        // The episode the step sets up is one where the history changes the move (scripts/inertia-turns.ts
        // found it in Node): the page's own generation must tell the same story.
        await expect
          .poll(() => card.getByTestId('lesson-reveal').getAttribute('data-said'), { timeout: 120_000 })
          .toMatch(
            /^Under Full the model moves south, into a wall; under DE it moves east, an open way, around the wall\. The history changes what the model does/s,
          );
        // The two answers as written, on the card: what the reveal's words are checked against.
        const written = await card.getByTestId('lesson-written').textContent();
        expect(written).toMatch(/^Full.*Action -> south.*DE.*Action -> east/s);
        // The count at the wall, drawn: Full and DE so far.
        expect(await card.getByTestId('lesson-board-row').allTextContents()).toEqual([
          expect.stringMatching(/^whole history \(Full\)\d+\u00a0%\d+ of \d+$/),
          expect.stringMatching(/^no history \(DE\)\d+\u00a0%\d+ of \d+$/),
        ]);
        // Each bar's count beside its per cent, as the stored counts give it.
        expect(await card.getByTestId('lesson-board-counted').allTextContents()).toEqual(
          (['full', 'de'] as const).map((w) => `${WALL_COUNTS.repeats[w]} of ${WALL_COUNTS.moved[w]}`),
        );
        // Luck on its meter, with the verdict the words give.
        // Turn by turn, then each maze counted once (its turns share one history).
        expect(await card.getByTestId('lesson-luck-row').allTextContents()).toEqual(
          wallTally().luck!.map((l) => `${l.label}${l.clear ? 'more than luck' : 'could be luck'}${l.said}${pValue(l.p)}`),
        );
        expect(wallTally().luck!.map((l) => l.label)).toEqual(['Full against DE, turn by turn', 'the same, each maze counted once']);
        expect(await card.getByTestId('lesson-reveal').getAttribute('data-said')).toContain(
          wallTally().luck![0]!.clear ? 'it is more than luck' : 'it could be luck',
        );
      },
      undefined,
      page.getByTestId('generate'),
    );
    await step(
      2,
      async () => {
        // The step sets Clip's and Summary's H to 6, so that on these 10 turns they cut: the bar and the table agree.
        // The fields that set W, H and L are the researcher's: out of the lesson's way.
        expect(await page.getByRole('spinbutton', { name: /^H \(Clip/ }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Clip-6→1', exact: true }).first().isVisible()).toBe(true);
        await expect
          .poll(() => page.getByTestId('contexts-clip:6:1').locator('[role="img"]').getAttribute('aria-label'))
          .toBe('turns 1–5 not at all; turns 6–9 whole (the user turn and the answer)');
        await press('Enter');
        // The count leads with Full, LT and DE; the policies that cut in steps wait in the fold, beside Full and DE.
        const rows = (where: Locator) => where.getByTestId('lesson-board-row').allTextContents();
        await expect
          .poll(() => rows(card.getByTestId('lesson-board').first()), { timeout: 180_000 })
          .toEqual([
            expect.stringMatching(/^whole history \(Full\)/),
            expect.stringMatching(/^turn before only \(LT\)/),
            expect.stringMatching(/^no history \(DE\)/),
          ]);
        expect(await rows(card.getByTestId('lesson-more'))).toEqual(
          [
            'whole history (Full)',
            'last 6 turns (Window-6)',
            'piled up to 6, then the last (Clip-6→1)',
            'as Clip, with summaries (Summary-6→1)',
            'no history (DE)',
          ].map((label) => expect.stringMatching(new RegExp(`^${label.replace(/[()]/g, '\\$&')}\\d+\u00a0%`))),
        );
      },
      // The figures panel is covered until the shares are guessed: the reveal says LT's figures are in.
      card.getByTestId('lesson-takeaway'),
    );
    await step(
      3,
      async () => {
        // AO, by keyboard as "take me there" left it: the card reads the three that hide every answer.
        await press('Enter');
        await expect.poll(() => card.getByTestId('lesson-takeaway').textContent(), { timeout: 180_000 }).toBe(hiddenTally().takeaway);
        // AO-last waits for its own step: no bar, no row in the table.
        expect(await card.getByTestId('lesson-board-row').allTextContents()).not.toContainEqual(expect.stringContaining('AO-last'));
        expect(await page.getByTestId('contexts-ao-last').count()).toBe(0);
      },
      card.getByTestId('lesson-takeaway'),
    );
    await step(
      4,
      async () => {
        // AO-last: the table marks only the previous answer hidden, and the card reads its count.
        expect(await page.getByTestId('contexts-ao-last').locator('[role="img"]').getAttribute('aria-label')).toMatch(
          /^turns 1–8 whole \(the user turn and the answer\); turn 9 the user turn; the answer replaced by a placeholder/,
        );
        await press('Enter');
        await expect.poll(() => card.getByTestId('lesson-takeaway').textContent(), { timeout: 180_000 }).toBe(latestTally().takeaway);
        expect(await card.getByTestId('lesson-board-row').allTextContents()).toContainEqual(expect.stringContaining('AO-last'));
      },
      card.getByTestId('lesson-takeaway'),
    );
    await step(
      at('played'),
      async () => {
        // Goals reached playing whole mazes under each policy: the stored record, as the bars draw it.
        const mazes = playTally(CLOSED_LOOP.played.full).mazes;
        expect(await card.getByTestId('lesson-goals-row').allTextContents()).toEqual(
          (['full', 'lt', 'de', 'ao', 'ao-last', 'ao-second-last'] as const).map(
            (p) =>
              `${{ full: 'Full', lt: 'LT', de: 'DE', ao: 'AO', 'ao-last': 'AO-last', 'ao-second-last': 'AO-second-last' }[p]}${playTally(CLOSED_LOOP.played[p]).reached}of ${mazes}repeats ${playTally(CLOSED_LOOP.played[p]).repeatRate}\u00a0%`,
          ),
        );
        expect(await card.getByTestId('lesson-takeaway').textContent()).toBe('Fewer repeats did not mean more goals for this tiny model.');
      },
      undefined,
      card.getByTestId('lesson-goals'),
    );
    await step(at('recap'), async () => {
      // The counts of the steps before, side by side: the stored counts, as the recap words them.
      expect(await card.getByTestId('lesson-recap-row').allTextContents()).toEqual(
        recapRows().map(
          (r) =>
            // Under each rate its open ways and, played through under that policy, its goals (the twin is not a row).
            `${r.label}${r.sees}${r.rate}\u00a0%open way: ${r.open}\u00a0% · goal: ${playTally(CLOSED_LOOP.played[r.writer as Player]).reached} of ${playTally(CLOSED_LOOP.played.full).mazes}${r.luck ?? ''}${unbroken(r.tells)}`,
        ),
      );
      expect(await card.getByTestId('lesson-takeaway').textContent()).toBe(recapReveal().takeaway);
    });
    await step(at('attention'), async () => {
      // Attention met on one token: its share-out as one bar (hand-computed in tests/views/token-mix.test.ts); heads and
      // layers wait for their step.
      expect(await card.getByTestId('lesson-shape').count()).toBe(0);
      // One token's share-out in numbers, from the page's own figures, before the guess (hand-computed in tests/views/token-mix.test.ts).
      const bar = card.getByTestId('lesson-token-mix-bar');
      expect(await bar.locator('li').count()).toBe(4);
      expect(await bar.locator('[role="img"]').getAttribute('aria-label')).toMatch(
        /^For example, ".+", the token whose row picks the answer's last word, ".+", gives \d+ % to .+ and \d+ % to .+; the other \d+ tokens share the last \d+ %\.( Attention need not fall where a person would look: punctuation often gets much of it\.)?$/,
      );
      expect(await card.getByTestId('lesson-takeaway').textContent()).toMatch(
        /^Its three most-read tokens get far more than an even share, yet under half of all its attention\.$/,
      );
    });
    await step(at('shares'), async () => {
      await guess();
      // Read down to the reveal, the card's top says the question again; back at the top, the text says it once.
      const readAt = await card.evaluate((el) => el.scrollTop);
      await card.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect
        .poll(() => card.getByTestId('lesson-recall').textContent())
        .toMatch(
          /^Its prior assistant answers are (\d+)\u00a0% of those tokens, so reading every token alike would give them \1\u00a0%, an "even share"; do they get more\?$/,
        );
      await card.evaluate((el) => el.scrollTo({ top: 0 }));
      await expect.poll(() => card.getByTestId('lesson-recall').count()).toBe(0);
      await card.evaluate((el, top) => el.scrollTo({ top }), readAt);
      // The sink, folded into the shares: its share as the panel gives it.
      await expect.poll(() => card.getByTestId('lesson-more').textContent(), { timeout: 60_000 }).toMatch(/The sink takes (under 1|\d+)\u00a0%/);
      // Once guessed, the panel shows the shares; the diagonal the next step asks for reads "guess first" until then,
      // and the copy-aligned diagonal, the researcher's, is left out of the lesson.
      expect(await page.getByTestId('figure-full-diagonal').textContent()).toBe('guess first');
      expect(await page.getByTestId('figure-full-diagonalCopy').isVisible()).toBe(false);
    });
    await step(at('heatmap'), async () => {
      // A drawing of what a copy and a stripe look like, said to be a drawing.
      expect(await page.getByTestId('lesson-copy-sketch').textContent()).toContain('A drawing of what to look for, not the model');
      // The real picture's axes named by the strips that mark them, with the turn the zoom opens on.
      expect(await page.getByTestId('lesson-axes').textContent()).toMatch(/Columns: turn 9's answer \(the prior assistant strip along the top\)/);
      // The band's parts come with the diagonal step's reveal: here the picture holds the band alone.
      expect(await page.getByTestId('lesson-zoom').textContent()).not.toContain('white dashed line');
      // One real copy is outlined, said in the card and under the heatmap.
      expect(await card.getByTestId('lesson-text').textContent()).toMatch(
        /^Each row is one token of turn 10's answer, laid out as step \d+'s bar: brighter is more attention\. Columns: the tokens it reads, zoomed on turn 9's answer\. A copy: a token reading the same word in a prior assistant answer\. Copies in order make a slanted line \(drawn above\): its 10th token reads that answer's 10th(, or its 11th, the word it copies next)?\. Here (copies are single cells|a bright line runs \d+ cells); the arrow marks one, "[^"]+" reading "[^"]+"(, the word it writes next)?\.$/,
      );
      expect(await page.getByTestId('lesson-zoom').textContent()).toMatch(
        /The light-blue box and arrow: one real copy, an answer token reading( the same word in that answer|, in that answer, the word it writes next), read out under the heatmap until you point at another cell \(a white box\)\./,
      );
      // The card reads the arrow's cell as the line under the heatmap does: its two tokens and its weight.
      const readout = (await page.getByTestId('heatmap-hover-full').textContent()) ?? '';
      const weight = /gives ([\d.]+) % of its attention/.exec(readout)?.[1];
      expect(weight).toBeDefined();
      await expect.poll(() => card.getByTestId('lesson-reveal').getAttribute('data-said')).toContain(`gives ${weight}\u00a0% of its attention to`);
      // The brightest upright stripe, in the zoom on the last prior assistant answer, is the token the same model's answer looks at most in Node.
      const stripe = await brightestStripe();
      const pct = (v: number) => `${Math.round(v * 100)}\u00a0%`;
      expect(await card.getByTestId('lesson-reveal').getAttribute('data-said')).toMatch(
        new RegExp(
          `(The|Of the conversation's words, the) brightest stripe is "${stripe.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" \\(turn 9's answer(, \\w+ line)?\\): every row reads it, ${pct(stripe.share)} of the answer's attention in all\\.`,
        ),
      );
      // The chat format's marker before the answer, read more than any word (the tallest column): named, as in Node.
      if (stripe.marker.share > stripe.share) {
        expect(await card.getByTestId('lesson-reveal').getAttribute('data-said')).toContain(
          `The tallest column is "${stripe.marker.text}", the marker the chat format puts before the answer (${pct(stripe.marker.share)})`,
        );
        expect(await page.getByTestId('lesson-zoom').textContent()).toContain("The taller column at the answer's start is the chat format's marker");
      }
    });
    await step(at('diagonal'), async () => {
      await guess(true);
      await expect.poll(() => page.getByTestId('lesson-zoom').textContent()).toContain('white dashed line');
      // The band alone: Filler waits for its own step.
      expect(await page.getByTestId('lesson-zoom').textContent()).not.toContain('Filler');
      // The demo model's copy of the list runs a token right of the centre (its band's brightest offset): said under the heatmap.
      expect(await page.getByTestId('lesson-zoom').textContent()).toContain('Its copy runs just right of the dotted line');
      // And what the band misses, the quiz's shifted copy: said on the page, with the page's radius.
      expect(await page.getByTestId('lesson-zoom').textContent()).toContain('within 5 tokens of the dotted line: a copy shifted further is missed');
      expect(await card.getByTestId('lesson-guess-locked').textContent()).toContain('more than an even share');
      // The diagonal split by the answer's lines is what the same model gives in Node.
      const split = await lineSplit();
      const pct = (v: number) => `${Math.round(v * 100)}\u00a0%`;
      // Each part averaged over its own rows, in the fold as on the bars.
      const own = (v: number, n: number) => pct((v * (split.rowsBefore + split.rowsLast)) / n);
      await expect
        .poll(() => card.getByTestId('lesson-reveal').textContent(), { timeout: 60_000 })
        .toContain(
          `the list of cells, which the task asks it to copy, ${own(split.before, split.rowsBefore)} (even share ${own(split.evenBefore, split.rowsBefore)}); the thought and move lines ${own(split.last, split.rowsLast)} (even share ${own(split.evenLast, split.rowsLast)})`,
        );
      // Said in words on the card: the list gives most of it.
      expect(split.before).toBeGreaterThan(split.last);
      expect(await card.getByTestId('lesson-takeaway').textContent()).toContain('It copies in order mostly the list of cells');
      // And drawn: the whole answer, then its two parts, as the same model gives them in Node.
      expect((await card.getByTestId('lesson-bars-row').allTextContents()).slice(1)).toEqual([
        `list of cells (above the white line)${own(split.before, split.rowsBefore)}even share ${own(split.evenBefore, split.rowsBefore)}`,
        `thought and move (below it)${own(split.last, split.rowsLast)}even share ${own(split.evenLast, split.rowsLast)}`,
      ]);
    });
    await step(at('filler'), async () => {
      // Filler is said where it stands. Its heatmap comes with its own pass, after Full's: waited for, as the page shows it.
      await expect
        .poll(() => page.getByTestId('lesson-zoom').textContent(), { timeout: 60_000 })
        .toContain('Right: Filler, the same answer with the words of its prior assistant answers swapped');
      // "It falls", the first choice, where "take me there" put the focus.
      await press('Enter');
      expect(await card.getByTestId('lesson-guess-locked').textContent()).toContain('falls');
      // Both bands as the figures panel gives them, on the bars and in the card's sentence.
      const shown = async (id: string) => `${Math.round(Number(await page.getByTestId(id).getAttribute('data-value')) * 100)}\u00a0%`;
      await page.getByTestId('figure-filler-diagonal').waitFor({ timeout: 60_000 });
      const [full, filler] = [await shown('figure-full-diagonal'), await shown('figure-filler-diagonal')];
      const rows = await card.getByTestId('lesson-bars-row').allTextContents();
      expect(rows[0]).toMatch(new RegExp(`^as written \\(left heatmap\\)${full}even share`));
      expect(rows[1]).toMatch(new RegExp(`^with filler \\(right heatmap\\)${filler}even share`));
      expect(await card.getByTestId('lesson-reveal').getAttribute('data-said')).toMatch(
        new RegExp(`^You guessed it falls, rightly; the band gets ${filler} with filler in the answers' place, against ${full} as written\\.`),
      );
      expect(await card.getByTestId('lesson-takeaway').textContent()).toBe('Most of the band goes with the words, so it rests on what the answers say.');
    });
    await step(at('heads'), async () => {
      // Heads met here: the model's shape, from the model on the page (its layers, each with its heads, as its config says).
      const config = JSON.parse(readFileSync('models/inertia-demo/config.json', 'utf8')) as { num_hidden_layers: number; num_attention_heads: number };
      const layers = card.getByTestId('lesson-shape-layer');
      expect(await layers.count()).toBe(config.num_hidden_layers);
      expect(await layers.last().locator('.shape-head').count()).toBe(config.num_attention_heads);
      await press('Enter'); // the last layer's top 3 heads off, the answer written each way, then the control
      // The page's answers lead where the same model's answers in Node do.
      const [moves, named] = await headsStory();
      await expect.poll(() => card.getByTestId('lesson-reveal').getAttribute('data-said'), { timeout: 180_000 }).toContain(moves);
      expect(await card.getByTestId('lesson-reveal').textContent()).toContain(named);
      await page.getByTestId('off-control').waitFor();
      // The ★ stays on the head with the highest diagonal ratio, now switched off: a mark that moved would read as a new finding.
      await expect.poll(() => page.locator('[data-testid="head-grid-0"] [data-top] .head-mark').textContent()).toBe('× ★ ▲');
      // The three switched off are the three ringed before the click, the last layer's highest.
      const ringed = page.locator('[data-testid="head-grid-0"] [data-rank="first"]');
      expect(await ringed.count()).toBe(3);
      for (const cell of await ringed.all()) expect(await cell.locator('.head-mark').textContent()).toMatch(/^×/);
      expect(await page.locator('[data-testid="head-grid-0"] [data-rank="control"]').count()).toBe(3);
      // Where the stored repeats went with heads off, drawn: the stored counts, as the card words them.
      const heads = headsTally().board!;
      expect(await card.getByTestId('lesson-board-row').allTextContents()).toEqual(
        heads.rows.map((r) => `${r.label}${r.repeats}\u00a0%${r.noMove ? `${r.noMove}\u00a0% no move` : ''}`),
      );
      // Both of its comparisons on the luck meter, as the stored counts give them.
      expect(await card.getByTestId('lesson-luck-row').allTextContents()).toEqual(
        headsTally().luck!.map((l) => `${l.label}${l.clear ? 'more than luck' : 'could be luck'}${l.said}${pValue(l.p)}`),
      );
    });
    await step(
      at('inside'),
      async () => {
        // Each step of the attention half in a row: the counts' rows as the stored counts give them, Filler's from the figures on screen.
        const rows = await card.getByTestId('lesson-recap-row').allTextContents();
        expect(rows).toHaveLength(5);
        const h = WALL_COUNTS.headsOff;
        expect(rows[4]).toContain(`${stillPct(h, 'top')}, ${stillPct(h, 'random')}, ${stillPct(h, 'bottom')}`.replace(/ %/g, '\u00a0%'));
        const shown = async (id: string) => `${Math.round(Number(await page.getByTestId(id).getAttribute('data-value')) * 100)}\u00a0%`;
        expect(rows[2]).toContain(`${await shown('figure-filler-diagonal')} against ${await shown('figure-full-diagonal')}`);
      },
      undefined,
      card.getByTestId('lesson-recap'),
    );
    await step(at('cpl'), async () => {
      await press('Enter');
      // The twin is loaded, both write the wall's answer, and every turn is scored with both: the page tells the
      // story the same two models tell in Node.
      const { mine, twin, count: c } = await cplStory();
      const reveal = card.getByTestId('lesson-reveal');
      await expect
        .poll(() => reveal.textContent(), { timeout: 240_000 })
        .toContain(
          `the twin gives its prior assistant answers less attention at ${c.priorLower} of ${c.turns} turns and has the smaller diagonal ratio at ${c.diagonalLower} of ${c.turns}`,
        );
      expect(await reveal.textContent()).toContain(`the demo model moves ${moveOf(mine)},`);
      expect(await reveal.textContent()).toContain(`its CPL twin moves ${moveOf(twin)},`);
      // The chart the card points at draws the prior assistant answers' chance beside their share.
      expect(await page.getByTestId('turns-chart').textContent()).toContain('prior assistant: even share (their part of the tokens)');
      // Only the three lines the card reads: the prior assistant share, its chance and the twin's share.
      // (The twin's line comes with its own pass over the turns, after the answers: waited for.)
      await expect
        .poll(() => page.getByTestId('turns-chart').locator('figcaption > span').allTextContents(), { timeout: 120_000 })
        .toEqual([' prior assistant', ' prior assistant: even share (their part of the tokens)', ' CPL twin: prior assistant share']);
    });
    await step(at('check'), async () => {
      for (const [i, q] of QUIZ.entries()) {
        // The first group has the focus from "take me there"; Tab moves to the next group, arrows choose within
        // one. Each question is an action of its own: its keys are counted from the question before.
        if (i > 0) {
          expect(keys, `question ${i}`).toBeLessThanOrEqual(5);
          keys = 0;
          await press('Tab');
        }
        if (q.correct === 0) await press('Space');
        else await press('ArrowDown', q.correct);
        await expect.poll(() => card.getByTestId(`lesson-feedback-${i}`).textContent()).toMatch(/^Right\./);
      }
      expect(await card.getByTestId('lesson-score').textContent()).toContain(`${QUIZ.length} of ${QUIZ.length} right`);
      // The running count at the wall, its five key rows: the stored counts, as the card words them.
      const board = scoreboard({ generate: true, contexts: true, hide: true, cpl: true }, undefined, ['full', 'de', 'ao-last', 'ao-second-last', 'twin'])!;
      expect(await card.getByTestId('lesson-board-row').allTextContents()).toEqual(
        board.rows.map((r) => `${r.label}${r.repeats}\u00a0%${r.counted ?? ''}${r.noMove ? `${r.noMove}\u00a0% no move` : ''}`),
      );
      // Every comparison in one table, in the fold: a row each, its luck alone and counted with the rest.
      const evidence = evidenceRows();
      const rows = card.getByTestId('lesson-evidence-row');
      expect(await rows.count()).toBe(evidence.length);
      expect(await rows.first().textContent()).toBe(
        `${evidence[0]!.compared}repeats the blocked move · step 2${evidence[0]!.onlyFirst} / ${evidence[0]!.onlySecond}+${evidence[0]!.gap} (+${evidence[0]!.range[0]} to +${evidence[0]!.range[1]})${evidence[0]!.said}${evidence[0]!.holmSaid}: more than luck`,
      );
    });
    await expect.poll(() => card.count()).toBe(0);
    expect(long, `sentences of more than ${WORDS.sentence} words`).toEqual([]);
    expect(crowded, `reveals showing more than ${WORDS.numbers} numbers unfolded`).toEqual([]);
    // Finish gives the focus back to the button that opens the lesson.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('learn');
    await page.close();

    // A link opens the lesson at a step, and the link follows the step.
    const linked = await browser.newPage();
    await linked.goto(`${app.url}/?backend=wasm#lesson=4`);
    await expect.poll(() => linked.getByTestId('lesson-title').textContent()).toBe(LESSON[3]!.title);
    await linked.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => linked.evaluate(() => location.hash)).toContain('lesson=3');
    await linked.close();

    // A teacher's exercise: chosen parts hidden, said so, and one click shows everything again.
    const exercise = await browser.newPage();
    await exercise.goto(`${app.url}/?backend=wasm#lesson=${stepNo('diagonal')}&hide=policies,heatmap`);
    await exercise.getByTestId('hidden-note').waitFor();
    expect(await exercise.locator('[data-lesson="policies"]').isHidden()).toBe(true);
    expect(await exercise.locator('[data-lesson="heatmap"]').isHidden()).toBe(true);
    expect(await exercise.getByTestId('lesson-title').textContent()).toBe(LESSON[stepNo('diagonal') - 1]!.title);
    expect(await exercise.evaluate(() => location.hash)).toContain('hide=policies,heatmap');
    await exercise.getByRole('button', { name: 'show everything' }).click();
    expect(await exercise.locator('[data-lesson="policies"]').isVisible()).toBe(true);
    // The regions no step uses are out of the way while the lesson is open, said so, and one click shows them.
    expect(await exercise.getByTestId('quiet-note').textContent()).toMatch(/the model panels, the raw forward pass, the exports and the researcher's details/);
    expect(await exercise.locator('[data-lesson="model"]').isHidden()).toBe(true);
    // The heatmap's colour scale is one of those details: said plainly while quiet, in full once shown.
    const scale = exercise.locator('[data-lesson="heatmap"]').getByText(/square-root scale/);
    await exercise
      .locator('[data-lesson="heatmap"]')
      .getByText(/brighter = more attention/)
      .first()
      .waitFor();
    expect(await scale.count()).toBe(0);
    await exercise.getByRole('button', { name: 'show them' }).click();
    expect(await exercise.locator('[data-lesson="model"]').isVisible()).toBe(true);
    await scale.first().waitFor();
    expect(await exercise.getByTestId('quiet-note').count()).toBe(0);
    await exercise.close();

    // On a phone the card folds to its title, action and buttons, and unfolds again.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${app.url}/?backend=wasm#lesson=4`);
    const phoneCard = phone.getByTestId('lesson-card');
    await phoneCard.waitFor();
    const tall = (await phoneCard.boundingBox())!.height;
    await phoneCard.getByRole('button', { name: 'fold the card' }).click();
    expect(await phone.getByTestId('lesson-text').isHidden()).toBe(true);
    expect(await phone.getByTestId('lesson-action').isVisible()).toBe(true);
    expect((await phoneCard.boundingBox())!.height).toBeLessThanOrEqual(tall);
    await phoneCard.getByRole('button', { name: 'unfold the card' }).click();
    expect(await phone.getByTestId('lesson-text').isVisible()).toBe(true);
    // "taller" gives a long step more of the screen, on request only; "shorter" gives it back.
    await phoneCard.getByRole('button', { name: 'taller' }).click();
    await expect.poll(async () => (await phoneCard.boundingBox())!.height).toBeGreaterThan(844 / 3 + 20);
    await phoneCard.getByRole('button', { name: 'shorter' }).click();
    await expect.poll(async () => (await phoneCard.boundingBox())!.height).toBeLessThanOrEqual(844 / 3 + 1);
    await phone.close();
    // Folded after its reveal, the card keeps the reveal's headline: the picture behind shows, and so does its point.
    const played = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await played.goto(`${app.url}/?backend=wasm#lesson=${stepNo('played')}`);
    const playedCard = played.getByTestId('lesson-card');
    await playedCard.getByTestId('lesson-takeaway').waitFor();
    const headline = await playedCard.getByTestId('lesson-takeaway').textContent();
    await playedCard.getByRole('button', { name: 'fold the card' }).click();
    expect(await playedCard.getByTestId('lesson-folded-takeaway').textContent()).toBe(headline);
    expect(await playedCard.getByTestId('lesson-reveal').count()).toBe(0);
    await played.close();
  }, 600_000);

  it('on a phone: the card takes at most a third of the screen, the diagonal step zooms the heatmap, every step is drawn; axe-core finds nothing', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    // The start page, before any lesson, at a phone's width.
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('learn').click();
    const card = page.getByTestId('lesson-card');
    const shots = SHOTS ? join(SHOTS, 'lesson') : null;
    for (const [n, s] of LESSON.entries()) {
      if (n > 0) await card.getByRole('button', { name: 'Skip', exact: true }).click();
      await expect.poll(() => page.getByTestId('lesson-title').textContent()).toBe(s.title);
      // A third at most where the step points at the page; a step read in the card alone (the recaps, the quiz) opens tall.
      expect((await card.boundingBox())!.height, `step ${n + 1}: the card's height`).toBeLessThanOrEqual(s.region === 'card' ? 844 * 0.85 + 1 : 844 / 3 + 1);
      // The diagonal step opens on the last prior assistant answer in square cells.
      // The diagonal step opens on the band alone; the Filler step adds Filler's beside it.
      if (s.id === 'diagonal' || s.id === 'filler') {
        const canvases = page.locator('[data-lesson="heatmap"] canvas[role="img"]');
        await canvases.nth(s.id === 'filler' ? 1 : 0).waitFor({ timeout: 120_000 });
        for (const canvas of await canvases.all()) {
          expect(await canvas.getAttribute('data-column-px')).toBe(await canvas.getAttribute('data-row-px'));
          expect(Number(await canvas.getAttribute('data-first-column'))).toBeGreaterThan(400);
        }
        expect(await page.getByTestId('lesson-zoom').textContent()).toContain('square cells');
      }
      if (s.id === 'shares') expect(await axeViolations(page), 'a lesson step at a phone width').toEqual([]);
      // The card's own actions (a guess locked in, an answer written) on the phone too: the reveal shows in the card.
      if (s.guess || s.act) {
        await card.getByTestId(s.guess ? (s.guess.choices ? 'lesson-choice-2' : 'lesson-lock') : 'lesson-act').click({ timeout: 120_000 });
        await card.getByTestId('lesson-reveal').waitFor({ timeout: 120_000 });
        await expect
          .poll(() => card.getByTestId('lesson-reveal').getAttribute('data-said'), { timeout: 120_000 })
          .toMatch(s.act ? (s.id === 'cpl' ? /its CPL twin moves/ : s.id === 'heads' ? /With every head on/ : /under DE/) : /^You guessed/);
        // A guess uncovers figures above the step's region: the region (or what the step shows) is brought back
        // into view, above the card.
        if (s.guess) {
          const shown = page.locator(s.show ?? `[data-lesson="${s.region}"]`).first();
          await expect.poll(() => shown.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
          const cardTop = (await card.boundingBox())!.y;
          expect(await shown.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(cardTop);
          if (s.show) expect(await shown.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(cardTop + 1);
        }
      }
      // Every other step's action by a tap, so each picture shows what the step does.
      await tapAction(page, card, s);
      if (s.reveal) await card.getByTestId('lesson-reveal').waitFor({ timeout: 180_000 });
      if (s.quiz) await expect.poll(() => card.getByTestId('lesson-score').textContent()).toContain(`${s.quiz.length} of ${s.quiz.length} right`);
      // A reveal whose bars are in the card opens it tall, so they show beside their headline.
      if (s.id === 'generate' || s.id === 'hide' || s.id === 'hide-last')
        await expect.poll(async () => (await card.boundingBox())!.height, { message: `step ${n + 1}: the card opened tall` }).toBeGreaterThan(844 / 3 + 20);
      // The region's scroll is smooth: the picture after it.
      await page.waitForTimeout(900);
      if (shots) await page.screenshot({ path: join(shots, `phone-${String(n + 1).padStart(2, '0')}-${s.id}.png`) });
    }
    await page.close();
    const desktop = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await desktop.goto(`${app.url}/?backend=wasm`);
    await desktop.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    expect(await axeViolations(desktop), 'the start page').toEqual([]);
    // The first Tab stops are the skip links; one moves the focus into its region.
    await desktop.keyboard.press('Tab');
    expect(await desktop.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the conversation');
    await desktop.keyboard.press('Tab');
    await desktop.keyboard.press('Tab');
    expect(await desktop.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the figures');
    await desktop.keyboard.press('Enter');
    expect(await desktop.evaluate(() => document.activeElement?.closest('[data-lesson]')?.getAttribute('data-lesson'))).toBe('figures');
    await desktop.getByTestId('learn').click();
    await desktop.getByTestId('lesson-card').waitFor();
    expect(await axeViolations(desktop), 'the first lesson step').toEqual([]);
    await desktop.close();
  }, 600_000);
});
