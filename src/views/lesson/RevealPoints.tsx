import { unbroken } from './world';

/** A reveal's short lists side by side (stacked on a narrow card), each under its label. */
export function RevealPoints({ points }: { points: { label: string; items: string[] }[] }) {
  return (
    <div className="lesson-points" data-testid="lesson-points">
      {points.map((p) => (
        <section key={p.label}>
          <h3>{p.label}</h3>
          <ul>
            {p.items.map((item) => (
              <li key={item} data-testid="lesson-point">
                {unbroken(item)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
