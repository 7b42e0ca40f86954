/**
 * Drives the inspector page as a person would; shared by tests/browser/inspector.test.ts and
 * `npm run bench:browser` (which times the same steps).
 */
import type { Page } from 'playwright-core';
import type { Message } from '../../src/conversation/types';
import type { ChatTokenizer } from '../../src/model/tokenizer';

/** The system prompt, then the conversation's rounds repeated for as long as the rendering stays ≤ maxTokens. */
export function repeatRounds(tok: ChatTokenizer, messages: Message[], maxTokens: number): { messages: Message[]; tokens: number } {
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

/** Clicks a policy button and waits for its figures; returns the milliseconds from click to figures. */
export async function togglePolicy(page: Page, name: string, policy: string, timeout = 150_000): Promise<number> {
  const t0 = Date.now();
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByTestId(`figure-${policy}-diagonal`).waitFor({ timeout });
  return Date.now() - t0;
}

/** Waits until the rounds sweep that runs behind the figures is done (ORT's wasm shares the page's thread). */
export async function sweepDone(page: Page, timeout = 300_000): Promise<void> {
  await page.getByText(/scoring every turn/).waitFor({ state: 'detached', timeout });
  // A sweep that failed is also "done": say so instead of timing nothing.
  const error = page.getByTestId('analysis-error');
  if (await error.count()) throw new Error(`the page shows an analysis error: ${await error.textContent()}`);
}
