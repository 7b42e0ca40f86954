import type { Ref } from 'react';
import { CountTable } from './CountTable';
import { EvidenceTable } from './EvidenceTable';
import { GoalChart } from './GoalChart';
import { LuckMeter } from './LuckMeter';
import { RecapTable } from './RecapTable';
import { RevealBars } from './RevealBars';
import { RevealPoints } from './RevealPoints';
import type { Board } from './wall-counts';
import { WallChart } from './WallChart';
import type { Written } from './written';
import { sentencesOf, unbroken, type Reveal } from './world';

/**
 * The reveal's words cut where a newcomer stops: its first sentence shown under the picture, the rest folded with
 * the figures behind it. A reader asked for one headline and one picture per card, the rest on request.
 */
export function splitSaid(said: string): { lead: string; rest: string } {
  const [lead = '', ...rest] = sentencesOf(said);
  return { lead, rest: rest.join(' ') };
}

/** What the fold holds, in its summary's words, so a reader knows what opening it gives. */
export function foldSummary(r: Reveal, rest: string, luckShown = false): string {
  const parts = [
    rest && 'more in words',
    !luckShown && r.luck && r.luck.length > 0 && 'could it be luck?',
    (r.more || r.counts) && 'the figures behind this',
    r.evidence && 'how sure is each finding?',
  ].filter(Boolean);
  return `Read more: ${parts.join(' · ')}`;
}

/** The step that first asks whether a gap could be luck: its meter, in the fold, carries the words that teach it. */
const LUCK_TAUGHT = 'generate';
/**
 * The steps whose point is "could be luck" (the heads against three at random, the twin against the demo model): their
 * meter shown unfolded, so the verdict sits beside its line. Where it is taught it waits in the fold: readers found a
 * chart of chances on the card's face too much for the lesson's first count.
 */
const LUCK_SHOWN = new Set(['heads', 'cpl']);

interface RevealBoxProps {
  reveal: Reveal;
  count: Board | null;
  /** The step's id: where the luck meter is unfolded, and where it is taught. */
  step: string;
  written: Written[];
  boxRef: Ref<HTMLDivElement>;
}

/**
 * A reveal as the card shows it: the point in bold, one picture, one sentence, and what the step wrote; then, folded,
 * the rest of the words, the other pictures (the luck meter, but where the lesson first teaches it) and the figures
 * behind it. `count` is the running count at the wall, where the step draws it.
 */
export function RevealBox({ reveal, count, step, written, boxRef }: RevealBoxProps) {
  const [luckShown, luckTaught] = [LUCK_SHOWN.has(step), step === LUCK_TAUGHT];
  const { lead, rest } = splitSaid(reveal.said);
  const luck = reveal.luck && reveal.luck.length > 0 ? <LuckMeter rows={reveal.luck} taught={luckTaught} /> : null;
  const pictures = [
    count && <WallChart key="count" board={count} />,
    reveal.board && <WallChart key="board" board={reveal.board} />,
    reveal.goals && <GoalChart key="goals" chart={reveal.goals} />,
    reveal.table && <RecapTable key="table" table={reveal.table} />,
    reveal.bars && <RevealBars key="bars" bars={reveal.bars} />,
  ].filter(Boolean);
  const [picture = null, ...others] = pictures;
  const folded = [...others, luckShown ? null : luck].filter(Boolean);
  // An empty "more" is no fold: a reader opened one and found nothing.
  const hasFold = rest !== '' || folded.length > 0 || Boolean(reveal.more) || Boolean(reveal.counts) || Boolean(reveal.evidence);
  return (
    <div className="lesson-reveal" data-testid="lesson-reveal" data-said={unbroken(reveal.said)} ref={boxRef}>
      {reveal.takeaway && (
        <p className="lesson-takeaway" data-testid="lesson-takeaway">
          <strong>{unbroken(reveal.takeaway)}</strong>
        </p>
      )}
      {picture}
      {/* The closing lists are the lesson's summary: read, never folded. */}
      {reveal.points && <RevealPoints points={reveal.points} />}
      <p data-testid="lesson-lead">{unbroken(lead)}</p>
      {reveal.caveat && (
        <p className="lesson-caveat" data-testid="lesson-caveat">
          <strong>Careful:</strong> {unbroken(reveal.caveat)}
        </p>
      )}
      {reveal.next && (
        <p className="lesson-next" data-testid="lesson-next">
          <strong>Then:</strong> {reveal.next}
        </p>
      )}
      {luckShown && luck}
      {/* What the step had the model write, unfolded: an odd answer sits under the label that explains it. */}
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
      {hasFold && (
        <details data-testid="lesson-more">
          <summary>{foldSummary(reveal, rest, luckShown)}</summary>
          {rest && <p data-testid="lesson-said-rest">{unbroken(rest)}</p>}
          {folded}
          {reveal.counts && <CountTable table={reveal.counts} />}
          {reveal.more && <p data-testid="lesson-figures">{unbroken(reveal.more)}</p>}
          {reveal.evidence && <EvidenceTable rows={reveal.evidence} />}
        </details>
      )}
    </div>
  );
}
