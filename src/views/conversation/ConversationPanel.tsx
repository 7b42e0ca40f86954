import { useState, type DragEvent } from 'react';
import { type ConversationFormat, describeIssue } from '../../conversation/types';
import { EXAMPLES } from '../../state/examples';
import { useInspector } from '../../state/inspector-store';
import { TurnEditor } from './TurnEditor';
import { Explain } from '../explain/Explain';

/** Paste, drop or open a conversation in any format the CLI reads; problems are shown at their line, the text stays. */
export function ConversationPanel() {
  const text = useInspector((s) => s.text);
  const exampleName = useInspector((s) => s.exampleName);
  const refused = useInspector((s) => s.analysisError);
  const parsed = useInspector((s) => s.parsed);
  const setText = useInspector((s) => s.setText);
  const [dragging, setDragging] = useState(false);
  const showText = useInspector((s) => s.textEditorOpen);
  const setShowText = useInspector((s) => s.showTextEditor);

  const readFile = async (file: File | undefined) => {
    if (file) setText(await file.text(), true);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files[0]);
  };
  const errors = parsed.issues.filter((i) => i.severity === 'error');
  const warnings = parsed.issues.filter((i) => i.severity === 'warning');
  // Errors open the text: that is where they are fixed.
  const textOpen = showText || errors.length > 0 || !parsed.conversation;

  return (
    <section className="panel" aria-labelledby="conv-title">
      <h2 id="conv-title">
        Conversation
        <Explain id="conversation" />
      </h2>
      <div className="row">
        <label>
          example{' '}
          <select
            aria-label="example"
            value={exampleName ?? ''}
            onChange={(e) => EXAMPLES.find((x) => x.name === e.target.value) && setText(EXAMPLES.find((x) => x.name === e.target.value)!.text, true)}
          >
            {exampleName === null && <option value="">(your conversation)</option>}
            {EXAMPLES.map((x) => (
              <option key={x.name} value={x.name}>
                {x.title}
              </option>
            ))}
          </select>
        </label>
        <label className="linklike">
          open a file…
          <input
            type="file"
            className="sr-only"
            accept=".json,.jsonl,.txt,text/plain,application/json"
            data-testid="open-conversation"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
        </label>
        <button type="button" onClick={() => setShowText(!textOpen)} aria-expanded={textOpen} disabled={errors.length > 0}>
          {textOpen ? 'hide the text' : 'paste or edit as text'}
        </button>
        {parsed.format && (
          <span className="muted small" data-testid="conversation-format">
            (the text is read as {FORMAT_NAMES[parsed.format]})
          </span>
        )}
      </div>
      {textOpen && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file pickers beside it are the keyboard's way
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <textarea
            aria-label="conversation text"
            value={text}
            rows={12}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            placeholder={
              'Paste a conversation: an OpenAI messages array, {"messages": [...]}, ShareGPT, JSONL, or plain text with "user:" / "assistant:" lines. Or drop a file here.'
            }
          />
        </div>
      )}
      {errors.length > 0 && (
        <div role="alert" className="error" data-testid="conversation-errors">
          <strong>This conversation cannot be scored yet:</strong>
          <ul>
            {errors.map((i, k) => (
              <li key={k}>{describeIssue(i)}</li>
            ))}
          </ul>
        </div>
      )}
      {errors.length === 0 && refused && (
        // The model refused what parsed (too long for it, a template that cannot render it): said here too,
        // beside what was pasted, not only under the view controls further down.
        <p role="alert" className="error" data-testid="conversation-refused">
          <strong>The model could not score this conversation:</strong> {refused}
        </p>
      )}
      {warnings.length > 0 && (
        <ul className="warn">
          {warnings.map((i, k) => (
            <li key={k}>{describeIssue(i)}</li>
          ))}
        </ul>
      )}
      {parsed.conversation && <TurnEditor messages={parsed.conversation.messages} />}
    </section>
  );
}

/** What each format the parser reads is called on screen. */
const FORMAT_NAMES: Record<ConversationFormat, string> = {
  openai: 'a JSON list of role and content messages',
  messages: 'JSON with a "messages" list',
  sharegpt: 'ShareGPT JSON ("conversations")',
  text: 'plain "User: … / Assistant: …" text',
};
