import { useLesson } from '../state/lesson-store';

/** Where the skip links go: the lesson card (when open) and the inspector's main regions, by their data-lesson name. */
const PLACES: { region: string; name: string }[] = [
  { region: 'card', name: 'the lesson card' },
  { region: 'conversation', name: 'the conversation' },
  { region: 'policies', name: 'the policies' },
  { region: 'figures', name: 'the figures' },
  { region: 'heatmap', name: 'the heatmap' },
  { region: 'charts', name: 'the charts' },
];

/** Moves the focus to an element, made focusable first when it is not (a heading, a panel). */
export function focusElement(el: HTMLElement): void {
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus();
}

/** Moves the focus to a region's heading, so the next Tab starts inside it. */
export function focusRegion(region: string): void {
  const root = document.querySelector<HTMLElement>(`[data-lesson="${region}"]`);
  const heading = root?.querySelector<HTMLElement>('h2') ?? root;
  if (heading) focusElement(heading);
}

/** The first Tab stops of the page: one link per main region, shown when focused. */
export function SkipLinks() {
  const lessonOpen = useLesson((s) => s.step !== null);
  return (
    <nav className="skip-links" aria-label="skip to">
      {PLACES.filter((p) => p.region !== 'card' || lessonOpen).map((p) => (
        <a
          key={p.region}
          href={`#region-${p.region}`}
          onClick={(e) => {
            // The fragment carries the page's state: the link moves the focus, not the address.
            e.preventDefault();
            focusRegion(p.region);
          }}
        >
          Skip to {p.name}
        </a>
      ))}
    </nav>
  );
}
