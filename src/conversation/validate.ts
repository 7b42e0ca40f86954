import type { InputIssue, Message } from './types';

/**
 * Checks that a conversation can be scored: errors stop the analysis, warnings (odd but valid
 * shapes, e.g. two user messages in a row) are shown and the conversation is still analysed.
 */
export function validateConversation(messages: Message[]): InputIssue[] {
  const issues: InputIssue[] = [];
  const at = (i: number) => ({ message: i + 1, ...(messages[i]!.line !== undefined && { line: messages[i]!.line }) });
  let systems = 0;
  messages.forEach((m, i) => {
    if (!m.content.trim()) issues.push({ severity: 'error', ...at(i), text: `the ${m.role} message is empty` });
    if (m.role === 'system') {
      systems++;
      if (systems === 2) issues.push({ severity: 'error', ...at(i), text: 'a second system message (only one is allowed, first)' });
      else if (i !== 0) issues.push({ severity: 'error', ...at(i), text: 'the system message must come first' });
    }
    const prev = messages[i - 1];
    if (prev && prev.role === m.role && m.role !== 'system') {
      issues.push({ severity: 'warning', ...at(i), text: `two ${m.role} messages in a row` });
    }
    if (m.summary !== undefined && m.role !== 'assistant')
      issues.push({ severity: 'warning', ...at(i), text: 'only assistant messages use "summary"; it is ignored here' });
  });
  if (!messages.some((m) => m.role === 'assistant')) issues.push({ severity: 'error', text: 'there is no assistant message to score' });
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  if (lastAssistant >= 0 && lastAssistant < messages.length - 1) {
    const n = messages.length - 1 - lastAssistant;
    issues.push({
      severity: 'warning',
      message: lastAssistant + 2,
      text: `the conversation ends with ${n === 1 ? 'a user message' : `${n} messages`} after the last answer: ${n === 1 ? 'it is' : 'they are'} not scored (the last answer is)`,
    });
  }
  const firstNonSystem = messages.find((m) => m.role !== 'system');
  if (firstNonSystem?.role === 'assistant')
    issues.push({ severity: 'warning', message: messages.indexOf(firstNonSystem) + 1, text: 'the conversation starts with an assistant message' });
  return issues;
}
