import type { RecapRow } from './recap';
import { unbroken } from './world';

/**
 * The recap: each policy counted at the wall in a row, what it shows the model, how often the model walks back
 * into the wall, and what that tells. Three columns, what it shows under the policy's name, so it fits a phone.
 */
export function RecapTable({ rows }: { rows: RecapRow[] }) {
  return (
    <table className="lesson-recap" data-testid="lesson-recap">
      <caption>Right after walking into a wall, how often it walks back in (of the moves it makes)</caption>
      <thead>
        <tr>
          <th scope="col">Policy: what the model is shown</th>
          <th scope="col">Back into the wall</th>
          <th scope="col">What that tells</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} data-testid="lesson-recap-row">
            <th scope="row">
              {r.label}
              <small className="muted">{r.sees}</small>
            </th>
            <td>
              <strong>{r.rate}&nbsp;%</strong>
            </td>
            <td>{unbroken(r.tells)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
