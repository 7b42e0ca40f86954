import type { CountTable as Table } from './count-table';

/** The fold's count table (count-table.ts): one row per policy, its turns split four ways, then the rate of its moves made. */
export function CountTable({ table }: { table: Table }) {
  return (
    <table className="lesson-counts" data-testid="lesson-counts">
      <caption>{table.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{table.rowsAre}</th>
          <th scope="col">same wall</th>
          <th scope="col">other wall</th>
          <th scope="col">open way</th>
          <th scope="col">no move</th>
          <th scope="col">same wall, of moves made</th>
          <th scope="col">any wall, of moves made</th>
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r) => (
          <tr key={r.label} data-testid="lesson-counts-row">
            <th scope="row">{r.label}</th>
            <td>{r.repeats}</td>
            <td>{r.otherWall}</td>
            <td>{r.open}</td>
            <td>{r.noMove}</td>
            <td>{r.rate}&nbsp;%</td>
            <td>{r.anyWall}&nbsp;%</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
