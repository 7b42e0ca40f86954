import { figuresOf, type LessonWorld } from './world';

/**
 * The loaded model's shape, drawn before the first look inside: the conversation goes in, through each layer in
 * turn, each layer's heads reading side by side, and the next token comes out; the last layer is the one the
 * figures average. Drawn from the model on the page (its layers, its heads), nothing when none is loaded.
 */
export function ModelShape({ w }: { w: LessonWorld }) {
  const heads = figuresOf(w)?.perHead.length ?? 0;
  if (w.finalLayer === null || heads === 0) return null;
  const layers = w.finalLayer + 1;
  return (
    <figure className="model-shape" data-testid="lesson-shape">
      <ol>
        <li className="shape-io">the conversation, token by token</li>
        {Array.from({ length: layers }, (_, l) => (
          <li key={`layer-${l}`} className={`shape-layer${l === layers - 1 ? ' shape-read' : ''}`} data-testid="lesson-shape-layer">
            <span>layer {l}</span>
            <span className="shape-heads" role="img" aria-label={`${heads} heads`}>
              {Array.from({ length: heads }, (_, h) => (
                <span key={`head-${l}.${h}`} className="shape-head" />
              ))}
            </span>
            {l === layers - 1 && <small>the figures average these {heads}</small>}
          </li>
        ))}
        <li className="shape-io">the next token it writes</li>
      </ol>
      <figcaption>
        This model has {layers} layers, one after the other, each with {heads} heads, readers side by side. For each token (word piece), each head shares out
        100&nbsp;% of its attention over the tokens before it. To measure attention the model does not write: it reads its stored last answer, already written,
        and the figures record where each of that answer's tokens looks.
      </figcaption>
    </figure>
  );
}
