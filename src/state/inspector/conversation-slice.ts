import { parseConversation } from '../../conversation/parse';
import { exampleNamed, START_EXAMPLE } from '../examples';
import { resetHover } from '../hover-store';
import type { ConversationSlice, Slice } from './types';

export const conversationSlice: Slice<ConversationSlice> = (set, get) => ({
  text: START_EXAMPLE.text,
  exampleName: START_EXAMPLE.name,
  parsed: parseConversation(START_EXAMPLE.text),
  setText(text, fresh = false) {
    resetHover();
    set((s) => ({ text, exampleName: exampleNamed(text), parsed: parseConversation(text), generated: {}, turn: fresh ? null : s.turn }));
    get().scheduleAnalysis(300);
  },
  setMessages(messages) {
    // The editor writes the conversation back as text, so the text stays the one source of truth.
    get().setText(`${JSON.stringify(messages.map(({ line: _l, ...m }) => m), null, 2)}\n`);
  },
});
