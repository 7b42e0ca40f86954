import { ordinal } from '../../util/ordinal';
import { TokenMixBar } from './TokenMixBar';
import { figuresOf, type LessonWorld } from './world';

/**
 * The loaded model's shape, drawn where heads are first met (the heads step): the conversation goes in, through each
 * layer in turn, each layer's heads reading side by side, and the next token comes out; the last layer is the one the
 * figures average. Drawn from the model on the page (its layers, its heads), nothing when none is loaded. A teacher
 * asked for heads and layers there, not in the attention step beside three other new words.
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
            {/* In words, counted from 1: the inspector's labels count from 0, and "layer 1" of "2 layers" tripped readers. */}
            <span>
              {ordinal(l + 1)} layer{l === layers - 1 ? ' (the last)' : ''}
            </span>
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
        <dl className="shape-words">
          <dt>head</dt>
          <dd>
            one attention pattern (a square above): each head shares out its own 100&nbsp;% over the earlier tokens, and its layer combines what its {heads}{' '}
            heads read.
          </dd>
          <dt>layer</dt>
          <dd>
            a row of heads; each layer reads what the one before found. The figures read the last of the {layers} layers, the one that picks the next token, as
            the mean of its {heads} heads.
          </dd>
        </dl>
      </figcaption>
    </figure>
  );
}

/**
 * The attention step's picture and words: one token's attention as a bar, and the three words the look inside starts
 * with, each once, in plain terms (the reviewers' newcomers knew none of them).
 */
export function AttentionWords({ w }: { w: LessonWorld }) {
  return (
    <figure className="model-shape" data-testid="lesson-attention-words">
      <TokenMixBar r={figuresOf(w)} />
      <figcaption>
        <dl className="shape-words">
          <dt>token</dt>
          <dd>a word piece: the model reads and writes one at a time.</dd>
          <dt>attention</dt>
          <dd>each earlier token's share of what a token reads, adding up to 100&nbsp;% (one token's, drawn above).</dd>
          <dt>current answer</dt>
          <dd>
            the conversation's last answer, already written, whose attention is measured: the model reads it through once, and we record where each of its
            tokens looks.
          </dd>
        </dl>
      </figcaption>
    </figure>
  );
}
