import { useId } from 'react';
import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import './spending-chart.css';

type Spending = DashboardSummary['spendingByCategory'];
type SpendingCategory = Spending[number]['category'];

/** Each category keeps its colour from month to month; the legend names it in words as well. */
const categoryClass: Record<SpendingCategory, string> = {
  Transfers: 'spending-chart--transfers',
  'Card payments': 'spending-chart--cards',
  Withdrawals: 'spending-chart--withdrawals',
  Other: 'spending-chart--other',
  'Loan repayments': 'spending-chart--loans',
  'Credit card payments': 'spending-chart--credit-cards',
  Fees: 'spending-chart--fees',
};

/** The ring's radius makes its circumference 100, so a share in percent is its dash length. */
const ringRadius = 100 / (2 * Math.PI);
const ringCentre = 21;

/** A whole percent for the legend; the geometry below uses the exact share. Shares are not money. */
function percentOf(amountCents: number, totalCents: number): number {
  return Math.round((amountCents / totalCents) * 100);
}

/**
 * This month's spending by category (docs/product.md D13) as a ring chart, with a legend that gives every
 * category's amount and share in text. The picture is labelled for screen readers by the same words.
 * Only categories with spending are shown; the caller says so when there is none at all.
 */
export function SpendingChart({ spending, monthLabel }: { spending: Spending; monthLabel: string }) {
  const titleId = useId();
  const slices = spending.filter((slice) => slice.amountCents > 0).toSorted((a, b) => b.amountCents - a.amountCents);
  const totalCents = slices.reduce((total, slice) => total + slice.amountCents, 0);
  if (slices.length === 0 || totalCents <= 0) throw new Error('SpendingChart needs at least one category with spending');

  const description = slices.map((slice) => `${slice.category} ${formatMoney(slice.amountCents)} (${percentOf(slice.amountCents, totalCents)}%)`).join(', ');
  let offset = 0;

  return (
    <figure className="spending-chart">
      <div className="spending-chart__picture">
        <svg viewBox="0 0 42 42" role="img" aria-labelledby={titleId}>
          <title id={titleId}>{`Spending in ${monthLabel}: ${description}`}</title>
          <circle className="spending-chart__track" cx={ringCentre} cy={ringCentre} r={ringRadius} />
          {slices.map((slice) => {
            const share = (slice.amountCents / totalCents) * 100;
            // Starts at twelve o'clock (a quarter turn back) and goes clockwise.
            const dashOffset = 25 - offset;
            offset += share;
            return (
              <circle
                key={slice.category}
                className={`spending-chart__slice ${categoryClass[slice.category]}`}
                cx={ringCentre}
                cy={ringCentre}
                r={ringRadius}
                strokeDasharray={`${share} ${100 - share}`}
                strokeDashoffset={dashOffset}
              />
            );
          })}
        </svg>
        <p className="spending-chart__total" aria-hidden="true">
          <span>Spent</span>
          <strong className="tabular">{formatMoney(totalCents)}</strong>
        </p>
      </div>
      <figcaption className="spending-chart__legend">
        <ul>
          {slices.map((slice) => (
            <li key={slice.category} className={categoryClass[slice.category]}>
              <span className="spending-chart__swatch" aria-hidden="true" />
              <span className="spending-chart__category">{slice.category}</span>
              <span className="spending-chart__amount tabular">{formatMoney(slice.amountCents)}</span>
              <span className="spending-chart__share tabular">{percentOf(slice.amountCents, totalCents)}%</span>
            </li>
          ))}
        </ul>
        <p className="spending-chart__sum">
          <span>Total</span>
          <span className="tabular">{formatMoney(totalCents)}</span>
        </p>
      </figcaption>
    </figure>
  );
}
