import type { ReactNode } from 'react';
import type { ReportLine } from '@strongroom/contracts/books.ts';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
// The report is drawn with the design system's table look (the Table component's own styles).
import '../../../components/ui/table.css';

/** One row of a report: a section's heading, an account's line, or a total. */
export type ReportRow =
  | { kind: 'heading'; key: string; label: string }
  | { kind: 'line'; key: string; account: string; name: string; amounts: readonly (number | undefined)[] }
  | { kind: 'total'; key: string; label: string; amounts: readonly (number | undefined)[] };

/** A section's heading, its accounts (balanceCents on each), and its total. */
export function sectionRows(label: string, lines: readonly ReportLine[], totalLabel: string, totalCents: number): ReportRow[] {
  return [
    { kind: 'heading', key: `heading-${label}`, label },
    ...lines.map((line): ReportRow => ({
      kind: 'line',
      key: `${label}-${line.account}`,
      account: line.account,
      name: line.name,
      amounts: [line.balanceCents],
    })),
    { kind: 'total', key: `total-${label}`, label: totalLabel, amounts: [totalCents] },
  ];
}

function Amounts({ amounts, strong }: { amounts: readonly (number | undefined)[]; strong: boolean }) {
  return amounts.map((cents, index) => (
    // The columns are fixed per report: their place is their identity.
    <td key={`amount-${index}`} className="table__numeric">
      {cents === undefined ? '' : strong ? <strong>{<MoneyAmount cents={cents} />}</strong> : <MoneyAmount cents={cents} />}
    </td>
  ));
}

/**
 * A financial report as a table: account number, name, and its money columns right-aligned in
 * tabular figures; sections open with a heading row and close with a total row (th scope="row", so
 * a screen reader reads "Total assets" with its figure).
 */
export function ReportTable({ caption, amountHeaders, rows }: { caption: ReactNode; amountHeaders: readonly string[]; rows: readonly ReportRow[] }) {
  const columnCount = 2 + amountHeaders.length;
  return (
    <div className="table-scroll" role="region" aria-label={typeof caption === 'string' ? caption : undefined} tabIndex={0}>
      <table className="table books-report">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Name</th>
            {amountHeaders.map((header) => (
              <th key={header} scope="col" className="table__numeric">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            if (row.kind === 'heading')
              return (
                <tr key={row.key} className="books-report__heading">
                  <th scope="rowgroup" colSpan={columnCount}>
                    {row.label}
                  </th>
                </tr>
              );
            if (row.kind === 'total')
              return (
                <tr key={row.key} className="books-report__total">
                  <th scope="row" colSpan={2}>
                    {row.label}
                  </th>
                  <Amounts amounts={row.amounts} strong />
                </tr>
              );
            return (
              <tr key={row.key}>
                <td className="tabular">{row.account}</td>
                <td>{row.name}</td>
                <Amounts amounts={row.amounts} strong={false} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
