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
    resetHover();
    const before = get().text;
    set((s) => ({ text, exampleName: exampleNamed(text), parsed: parseConversation(text), generated: [], turn: fresh ? null : s.turn }));
    // Typing waits for a pause; a new conversation, or many characters at once (a paste, a drop), is scored now.
    get().scheduleAnalysis(fresh || changedChars(before, text) > PASTE_CHARS ? 0 : TYPING_PAUSE_MS);
  },
  textEditorOpen: false,
  showTextEditor(open) {
    set({ textEditorOpen: open });
  },
  setMessages(messages) {
    // The editor writes the conversation back as text, so the text stays the one source of truth.
    get().setText(
      `${JSON.stringify(
        messages.map(({ line: _l, ...m }) => m),
        null,
        2,
      )}\n`,
    );
  },
});
