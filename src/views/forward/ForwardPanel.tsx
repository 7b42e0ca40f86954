import { useState } from 'react';
import { useModelStore } from '../../state/model-store';
import { Explain } from '../explain/Explain';

/** One forward pass on the loaded model: next-token probabilities and the final layer's attention shape. */
export function ForwardPanel() {
  const ready = useModelStore((s) => s.info !== null);
  const result = useModelStore((s) => s.forward);
  const error = useModelStore((s) => s.forwardError);
  const runForward = useModelStore((s) => s.runForward);
  const [text, setText] = useState('Hello! Which way is the goal?');
  const [asChat, setAsChat] = useState(true);
  if (!ready) return null;
  return (
    <section className="panel" aria-labelledby="forward-title">
      <h2 id="forward-title">
        Forward pass
        <Explain id="forward" />
      </h2>
      <textarea aria-label="input text" value={text} onChange={(e) => setText(e.target.value)} rows={3} />
      <div className="row">
        <label>
          <input type="checkbox" checked={asChat} onChange={(e) => setAsChat(e.target.checked)} /> as a user message, through the chat template
        </label>
        <button type="button" onClick={() => void runForward(text, asChat)}>
          Run
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {result && (
        <div data-testid="forward-result">
          <p>
            {result.tokens} tokens. Attention of layer {result.layer}: [{result.shape.join(' × ')}] (heads × query rows × keys), row sums of every head in [
            {result.perHeadRowSumRange[0].toFixed(6)}, {result.perHeadRowSumRange[1].toFixed(6)}] (each row of attention is a distribution: 1).
          </p>
          <table>
            <thead>
              <tr>
                <th>next token</th>
                <th>id</th>
                <th>probability</th>
              </tr>
            </thead>
            <tbody>
              {result.next.map((t) => (
                <tr key={t.id}>
                  <td>
                    <code>{JSON.stringify(t.text)}</code>
                  </td>
                  <td>{t.id}</td>
                  <td>{t.prob.toFixed(4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
