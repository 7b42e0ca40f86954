import { unbroken, type RecapTable as Table } from './world';

/**
 * A recap's table: a row per policy (or per step), what it shows under its name, its figure, and what that tells.
 * Three columns, the second line under the name, so it fits a phone.
 */
export function RecapTable({ table }: { table: Table }) {
  return (
    <table className={`lesson-recap${table.rows.some((r) => /\p{L}/u.test(r.figure)) ? ' worded' : ''}`} data-testid="lesson-recap">
      <caption>{table.caption}</caption>
      <thead>
        <tr>
          {table.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r) => (
          <tr key={r.label} data-testid="lesson-recap-row">
            <th scope="row">
              {r.label}
              <small className="muted">{r.sees}</small>
            </th>
            <td>
              <strong>{unbroken(r.figure)}</strong>
              {r.also && <small className="muted">{unbroken(r.also)}</small>}
              {/* How sure the gap is: the recap's point, so not greyed like the row's aside. */}
              {r.luck && <small>{r.luck}</small>}
            </td>
            <td>{unbroken(r.tells)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
