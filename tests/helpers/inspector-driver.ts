/**
 * Drives the inspector page as a person would; shared by tests/browser/inspector.test.ts and
 * `npm run bench:browser` (which times the same steps).
 */
import type { Page } from 'playwright-core';
import type { Message } from '../../src/conversation/types';
import type { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';

/** The system prompt, then the conversation's turns repeated for as long as the rendering stays ≤ maxTokens. */
export function repeatTurns(tok: ChatTokenizer, messages: Message[], maxTokens: number): { messages: Message[]; tokens: number } {
  const [system, ...rest] = messages;
  let out = [system!];
  for (let k = 0; ; k++) {
    const next = [...out, rest[(2 * k) % rest.length]!, rest[(2 * k + 1) % rest.length]!];
    if (tok.encode(tok.render(next, false)).length > maxTokens) break;
    out = next;
  }
  return { messages: out, tokens: tok.encode(tok.render(out, false)).length };
}

/** Pastes a conversation as JSON text into the conversation panel (the panel parses it at once). */
export async function pasteConversation(page: Page, messages: Message[]): Promise<void> {
  const editor = page.getByLabel('conversation text');
  if (!(await editor.isVisible())) await page.getByRole('button', { name: 'paste or edit as text' }).click();
  await editor.fill(JSON.stringify(messages.map(({ role, content }) => ({ role, content }))));
}

/** What a step waits for: these elements in the page (with this text, when given), or, `absent`, none of them. */
export type Shown = { selector: string; text?: string; absent?: true }[];

/**
 * Milliseconds from `act` (the first input event it causes: click, input or keydown, caught in the
 * capture phase) to the first frame that shows each stage in turn, timed in the page (a MutationObserver,
 * then the next animation frame), so that Playwright's own polling interval is not counted.
 */
export async function timeStagesInPage(page: Page, act: () => Promise<void>, stages: Shown[], timeout = 150_000): Promise<number[]> {
  const shown = page.evaluate(`(${STAGE_TIMER})(${JSON.stringify(stages)}, ${timeout})`) as Promise<number[]>;
  await act();
  return (await shown).map(Math.round);
}

// The page's side, as source text: a function passed to page.evaluate would carry the bundler's helpers (tsx's __name) into the page.
const STAGE_TIMER = `(wanted, ms) => new Promise((resolve, reject) => {
  let t0 = null;
  for (const type of ['click', 'input', 'keydown']) addEventListener(type, () => { t0 ??= performance.now(); }, { capture: true, once: true });
  const holds = (stage) => stage.every((w) => {
    const found = [...document.querySelectorAll(w.selector)].some((e) => w.text === undefined || (e.textContent ?? '').includes(w.text));
    return w.absent ? !found : found;
  });
  const times = [];
  let pending = false;
  const obs = new MutationObserver(() => {
    if (t0 === null || pending || !holds(wanted[times.length])) return;
    // Timed at the next frame: the one that paints it.
    pending = true;
    const began = t0;
    requestAnimationFrame(() => {
      const t = performance.now() - began;
      times.push(t);
      // A later stage shown in the same frame is timed with it.
      while (times.length < wanted.length && holds(wanted[times.length])) times.push(t);
      pending = false;
      if (times.length === wanted.length) { obs.disconnect(); resolve(times); }
    });
  });
  obs.observe(document.body, { childList: true, subtree: true, characterData: true });
  setTimeout(() => reject(new Error('not shown within ' + ms + ' ms: ' + JSON.stringify(wanted[times.length]))), ms);
})`;

/** The same for one stage. */
export async function timeInPage(page: Page, act: () => Promise<void>, until: Shown, timeout = 150_000): Promise<number> {
  return (await timeStagesInPage(page, act, [until], timeout))[0]!;
}

/** Clicks a policy button and waits for its figures; returns the milliseconds from the click to the frame that shows them. */
export function togglePolicy(page: Page, name: string, policy: string, timeout = 150_000): Promise<number> {
  return timeInPage(page, () => page.getByRole('button', { name, exact: true }).click(), [{ selector: `[data-testid="figure-${policy}-diagonal"]` }], timeout);
}

/** Milliseconds from the navigation's start to the first frame showing `selector` (recorded by an init script). */
export async function firstShownAt(page: Page, selector: string, timeout = 300_000): Promise<number> {
  await page.locator(selector).first().waitFor({ timeout });
  return page.evaluate(() => (window as unknown as { __firstShown: number | null }).__firstShown ?? NaN);
}

/** The init script firstShownAt reads: the first frame in which `selector` is in the page. */
export const FIRST_SHOWN = (selector: string) =>
  `window.__firstShown = null; new MutationObserver((_, o) => { if (document.querySelector(${JSON.stringify(selector)})) { o.disconnect(); requestAnimationFrame(() => { window.__firstShown = performance.now(); }); } }).observe(document, { childList: true, subtree: true });`;

/** Waits until the sweep over turns that runs behind the figures is done (ORT's wasm shares the page's thread). */
export async function sweepDone(page: Page, timeout = 300_000): Promise<void> {
  await page.getByText(/scoring every turn/).waitFor({ state: 'detached', timeout });
  // A sweep that failed is also "done": say so instead of timing nothing.
  const error = page.getByTestId('analysis-error');
  if (await error.count()) throw new Error(`the page shows an analysis error: ${await error.textContent()}`);
}
