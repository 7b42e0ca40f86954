import { parseConversation } from '../../conversation/parse';
import { exampleNamed, START_EXAMPLE } from '../examples';
import { resetHover } from '../hover-store';
import type { ConversationSlice, Slice } from './types';

const TYPING_PAUSE_MS = 300;
/** More characters than one keystroke (or an autocompleted word) changes: a paste. */
const PASTE_CHARS = 64;

/** Characters changed between two texts: what lies between their common prefix and common suffix. */
export function changedChars(a: string, b: string): number {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  return Math.max(a.length, b.length) - p - q;
}

export const conversationSlice: Slice<ConversationSlice> = (set, get) => ({
  text: START_EXAMPLE.text,
  exampleName: START_EXAMPLE.name,
  parsed: parseConversation(START_EXAMPLE.text),
  setText(text, fresh = false) {
    // A new conversation, or many characters at once (a paste, a drop), is scored now, at its last answer: the
    // turn picked for the text before is not one the person picked for this one. Typing waits for a pause.
    const pasted = fresh || changedChars(get().text, text) > PASTE_CHARS;
    writeText(set, get, text, pasted ? 'last' : 'keep', pasted ? 0 : TYPING_PAUSE_MS);
  },
  textEditorOpen: false,
  turnsOpen: false,
  showTurns(open) {
    set({ turnsOpen: open });
  },
  showTextEditor(open) {
    set({ textEditorOpen: open });
  },
  setMessages(messages) {
    // The editor writes the conversation back as text, so the text stays the one source of truth; an edit
    // of a message is not a new conversation, whatever it changes in the text (the first edit rewrites it as JSON).
    const text = `${JSON.stringify(
      messages.map(({ line: _l, ...m }) => m),
      null,
      2,
    )}\n`;
    writeText(set, get, text, 'keep', TYPING_PAUSE_MS);
  },
});

type Set = Parameters<Slice<ConversationSlice>>[0];
type Get = Parameters<Slice<ConversationSlice>>[1];
/** Sets the text (parsed, any answers the model wrote dropped) and the turn scored: the last, or the one picked. */
function writeText(set: Set, get: Get, text: string, turn: 'last' | 'keep', delayMs: number): void {
  resetHover();
  set((s) => ({ text, exampleName: exampleNamed(text), parsed: parseConversation(text), generated: [], turn: turn === 'last' ? null : s.turn }));
  get().scheduleAnalysis(delayMs);
}
