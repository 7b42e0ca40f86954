import type { ReactNode } from 'react';
import { useLesson } from '../state/lesson-store';
import { ErrorBoundary } from './ErrorBoundary';
import { HIDEABLE_NAMES, type Hideable } from '../state/regions';

/**
 * One region of the inspector, from the one list of them (lesson/hide.ts): its error boundary (a view that
 * fails shows what failed, the rest of the page stays), the anchor the lesson points at, and the hiding a
 * teacher's link asks for.
 */
export function Region({ name, id, className, children }: { name: Hideable; id?: string; className?: string; children: ReactNode }) {
  const hidden = useLesson((s) => s.hidden.includes(name));
  return (
    <ErrorBoundary name={HIDEABLE_NAMES[name].replace(/^the /, '')}>
      <div data-lesson={name} id={id} className={className} hidden={hidden}>
        {children}
      </div>
    </ErrorBoundary>
  );
}
