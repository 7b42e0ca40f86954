import type { ReactNode, Ref } from 'react';
import { sentencesOf, unbroken, type Reveal } from './world';

/** An answer the step had the model write, under its label. */
export interface Written {
  label: string;
  text: string;
}

/**
 * The reveal's words cut where a newcomer stops: its first sentence shown under the picture, the rest folded with
 * the figures behind it. A reader asked for one headline and one picture per card, the rest on request.
 */
export function splitSaid(said: string): { lead: string; rest: string } {
  const [lead = '', ...rest] = sentencesOf(said);
  return { lead, rest: rest.join(' ') };
}

/** What the fold holds, in its summary's words, so a reader knows what opening it gives. */
export function foldSummary(r: Reveal, rest: string, written: Written[]): string {
  const parts = [
    rest && 'more in words',
    r.luck && r.luck.length > 0 && 'could it be luck?',
    written.length > 0 && 'the answers it wrote',
    r.more && 'the figures behind this',
  ].filter(Boolean);
  return `Read more: ${parts.join(' · ')}`;
}

/**
 * A reveal as the card shows it: the point in bold, one picture, one sentence; then, folded, the rest of the
 * words, the luck meter, the answers the step wrote and the figures behind it.
 */
export function RevealBox(props: { reveal: Reveal; picture: ReactNode; folded: ReactNode; written: Written[]; boxRef: Ref<HTMLDivElement> }) {
  const { reveal, picture, folded, written, boxRef } = props;
  const { lead, rest } = splitSaid(reveal.said);
  const hasFold = rest !== '' || folded !== null || written.length > 0 || reveal.more !== undefined;
  return (
    <div className="lesson-reveal" data-testid="lesson-reveal" data-said={unbroken(reveal.said)} ref={boxRef}>
      {reveal.takeaway && (
        <p className="lesson-takeaway" data-testid="lesson-takeaway">
          <strong>{unbroken(reveal.takeaway)}</strong>
        </p>
      )}
      {picture}
      <p data-testid="lesson-lead">{unbroken(lead)}</p>
      {reveal.next && (
        <p className="lesson-next" data-testid="lesson-next">
          <strong>Then:</strong> {reveal.next}
        </p>
      )}
      {hasFold && (
        <details data-testid="lesson-more">
          <summary>{foldSummary(reveal, rest, written)}</summary>
          {rest && <p data-testid="lesson-said-rest">{unbroken(rest)}</p>}
          {folded}
          {written.length > 0 && (
            <dl className="lesson-written" data-testid="lesson-written">
              {written.map(({ label, text }) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>
                    <pre>{text || '(empty)'}</pre>
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {reveal.more && <p data-testid="lesson-figures">{unbroken(reveal.more)}</p>}
        </details>
      )}
    </div>
  );
}
