import { useState } from 'react';
import type { BillRobot } from '../../../../shared/ipc/account-models';
import { formatGb, nextSort, sortRobots, type RobotSort, type RobotSortKey } from './bill-figures';

const COLUMNS: ReadonlyArray<{ key: RobotSortKey; label: string }> = [
  { key: 'robot', label: 'Robot' },
  { key: 'rawGb', label: 'Raw GB' },
  { key: 'factor', label: 'Factor' },
  { key: 'gb', label: 'Billed GB' },
];

/** Per robot: what it processed, the factor the price list applies, and the GB billed. Sortable by any column. */
export const RobotTable = ({ robots }: { robots: readonly BillRobot[] }) => {
  const [sort, setSort] = useState<RobotSort>({ key: 'gb', dir: 'desc' });
  const rows = sortRobots(robots, sort);
  return (
    <section className="card robot-table-card" aria-label="Usage per robot">
      <h2 className="section-title">Per robot</h2>
      <table className="data-table" data-testid="robot-table">
        <thead>
          <tr>
            {COLUMNS.map((c, i) => (
              <th key={c.key} scope="col" className={i > 0 ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                <button type="button" className="sort-button" onClick={() => setSort(nextSort(sort, c.key))}>
                  {c.label}
                  <span aria-hidden="true" className="sort-mark">
                    {sort.key === c.key ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.robot} data-testid="robot-row" data-robot={r.robot} data-raw-gb={r.rawGb} data-gb={r.gb}>
              <th scope="row" className="mono">
                {r.robot === '/assemblies' ? '/assemblies (uploads)' : r.robot}
              </th>
              <td className="num" data-testid="robot-raw-gb">
                {formatGb(r.rawGb)}
              </td>
              <td className="num">{r.factorApplied || r.factor !== 1 ? `× ${r.factor}` : '× 1'}</td>
              <td className="num" data-testid="robot-gb">
                {formatGb(r.gb)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
};
