import type { Message, Role } from '../../conversation/types';
import { scoredTurn, useInspector } from '../../state/inspector-store';
import { useQuiet } from '../../state/lesson-store';

const ROLES: Role[] = ['system', 'user', 'assistant'];

/** The turns as a list: edit, add, remove, change role, choose the scored answer. Edits rewrite the text as JSON. */
export function TurnEditor({ messages }: { messages: Message[] }) {
  const setMessages = useInspector((s) => s.setMessages);
  const setTurn = useInspector((s) => s.setTurn);
  const scored = useInspector(scoredTurn);
  const update = (i: number, m: Partial<Message>) => setMessages(messages.map((x, k) => (k === i ? { ...x, ...m } : x)));
  const open = useInspector((s) => s.turnsOpen);
  const showTurns = useInspector((s) => s.showTurns);
  // The lesson shows the turns to be read, not edited: a transcript, without a role menu and a remove button on each.
  const quiet = useQuiet();
  let assistantNo = 0;
  if (quiet)
    return (
      <details className="turns" open={open} onToggle={(e) => e.currentTarget.open !== open && showTurns(e.currentTarget.open)}>
        <summary>
          The turns ({messages.length} messages; the scored answer is turn {scored ?? '–'})
        </summary>
        <TurnTranscript messages={messages} scored={scored} />
        <p className="muted">Closing the lesson brings back the editor (each message's role, text, and which answer is scored).</p>
      </details>
    );
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

/** The turns as read-only text, each under who wrote it and its turn; the scored answer marked. */
function TurnTranscript({ messages, scored }: { messages: Message[]; scored: number | null }) {
  let assistantNo = 0;
  let userNo = 0;
  return (
    <ol className="transcript" data-testid="turn-transcript">
      {messages.map((m, i) => {
        const turn = m.role === 'assistant' ? ++assistantNo : m.role === 'user' ? ++userNo : null;
        const isScored = m.role === 'assistant' && turn === scored;
        return (
          <li key={i} className={`turn role-${m.role}${isScored ? ' scored' : ''}`}>
            <span className="turn-who">
              {m.role === 'system' ? 'system prompt' : `${m.role} · turn ${turn}`}
              {isScored ? ' · the answer scored' : ''}
            </span>
            <span className="turn-text">{m.content}</span>
          </li>
        );
      })}
    </ol>
  );
}
