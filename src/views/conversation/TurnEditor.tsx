import type { Message, Role } from '../../conversation/types';
import { scoredTurn, useInspector } from '../../state/inspector-store';

const ROLES: Role[] = ['system', 'user', 'assistant'];

/** The turns as a list: edit, add, remove, change role, choose the scored answer. Edits rewrite the text as JSON. */
export function TurnEditor({ messages }: { messages: Message[] }) {
  const setMessages = useInspector((s) => s.setMessages);
  const setTurn = useInspector((s) => s.setTurn);
  const scored = useInspector(scoredTurn);
  const update = (i: number, m: Partial<Message>) => setMessages(messages.map((x, k) => (k === i ? { ...x, ...m } : x)));
  const open = useInspector((s) => s.turnsOpen);
  const showTurns = useInspector((s) => s.showTurns);
  let assistantNo = 0;
  return (
    <details className="turns" open={open} onToggle={(e) => e.currentTarget.open !== open && showTurns(e.currentTarget.open)}>
      <summary>
        Edit the turns ({messages.length} messages; the scored answer is turn {scored ?? '–'})
      </summary>
      <ol>
        {messages.map((m, i) => {
          const turn = m.role === 'assistant' ? ++assistantNo : null;
          return (
            <li key={i} className={`turn role-${m.role}${turn === scored ? ' scored' : ''}`}>
              <div className="row">
                <select aria-label={`role of message ${i + 1}`} value={m.role} onChange={(e) => update(i, { role: e.target.value as Role })}>
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
                {turn !== null && (
                  <label>
                    <input type="radio" name="scored" checked={turn === scored} onChange={() => setTurn(turn)} /> score this answer (turn {turn})
                  </label>
                )}
                <button type="button" aria-label={`remove message ${i + 1}`} onClick={() => setMessages(messages.filter((_, k) => k !== i))}>
                  remove
                </button>
              </div>
              <textarea
                aria-label={`message ${i + 1}`}
                value={m.content}
                rows={Math.min(6, m.content.split('\n').length + 1)}
                onChange={(e) => update(i, { content: e.target.value })}
              />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        onClick={() => setMessages([...messages, { role: messages[messages.length - 1]?.role === 'user' ? 'assistant' : 'user', content: '' }])}
      >
        add a message
      </button>
    </details>
  );
}
