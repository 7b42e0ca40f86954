import type { Message, Role } from '../../conversation/types';
import { scoredTurn, useInspector } from '../../state/inspector-store';
import { useQuiet } from '../../state/lesson-store';

const ROLES: Role[] = ['system', 'user', 'assistant'];

/**
 * The turns, folded under one summary: an editor (edit, add, remove, change role, choose the scored answer; edits
 * rewrite the text as JSON), or, while the lesson keeps the page quiet, a transcript to read.
 */
export function TurnEditor({ messages }: { messages: Message[] }) {
  const scored = useInspector(scoredTurn);
  const open = useInspector((s) => s.turnsOpen);
  const showTurns = useInspector((s) => s.showTurns);
  // The lesson shows the turns to be read, not edited: a transcript, without a role menu and a remove button on each.
  const quiet = useQuiet();
  return (
    <details className="turns" open={open} onToggle={(e) => e.currentTarget.open !== open && showTurns(e.currentTarget.open)}>
      <summary>
        {quiet ? 'The turns' : 'Edit the turns'} ({messages.length} messages; the scored answer is turn {scored ?? '–'})
      </summary>
      {quiet ? (
        <>
          <TurnTranscript messages={messages} scored={scored} />
          <p className="muted">Closing the lesson brings back the editor (each message's role, text, and which answer is scored).</p>
        </>
      ) : (
        <TurnList messages={messages} scored={scored} />
      )}
    </details>
  );
}

/** The turns to edit, each with its role, its text, a remove button and (an answer) the choice to score it; then "add". */
function TurnList({ messages, scored }: { messages: Message[]; scored: number | null }) {
  const setMessages = useInspector((s) => s.setMessages);
  const setTurn = useInspector((s) => s.setTurn);
  const update = (i: number, m: Partial<Message>) => setMessages(messages.map((x, k) => (k === i ? { ...x, ...m } : x)));
  let assistantNo = 0;
  return (
    <>
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
    </>
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
