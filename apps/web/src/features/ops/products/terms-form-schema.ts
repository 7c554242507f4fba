import { z } from 'zod';
import { maxInterestTiers, type ProductTerms, type ProductTermsChange } from '@strongroom/contracts/products.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';

/**
 * The back office's form for a product's new terms: amounts typed in dollars ("14.95"), rates as
 * percentages ("1.50"), read by their digits into whole cents and basis points (no float holds
 * them), then sent as `POST /staff/products/{id}/terms` takes them.
 */
const dollarsPattern = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,13})(?:\.(\d{1,2}))?$/;
const percentPattern = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/;

export function centsOfDollars(text: string): number | null {
  const match = dollarsPattern.exec(text.trim());
  if (!match) return null;
  return Number((match[1] ?? '').replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function bpsOfPercent(text: string): number | null {
  const match = percentPattern.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function dollars(what: string, { optional = false } = {}) {
  return z.string().superRefine((text, context) => {
    const trimmed = text.trim();
    if (trimmed === '' && optional) return;
    if (trimmed === '') context.addIssue({ code: 'custom', message: `enter the ${what}` });
    else if (trimmed.startsWith('-')) context.addIssue({ code: 'custom', message: `the ${what} cannot be negative` });
    else if (centsOfDollars(trimmed) === null) context.addIssue({ code: 'custom', message: `enter the ${what} in dollars and cents, such as 14.95` });
  });
}

const rate = z.string().superRefine((text, context) => {
  const trimmed = text.trim();
  const bps = bpsOfPercent(trimmed);
  if (trimmed === '') context.addIssue({ code: 'custom', message: 'enter the rate' });
  else if (trimmed.startsWith('-')) context.addIssue({ code: 'custom', message: 'a rate cannot be negative' });
  else if (bps === null) context.addIssue({ code: 'custom', message: 'enter the rate as a percentage with at most two decimals, such as 1.50' });
  else if (bps > 10_000) context.addIssue({ code: 'custom', message: 'a rate cannot be over 100%' });
});

/** The form's schema; the date must be after the bank's date (`bankDate`), as the server checks too. */
export function termsFormSchema(bankDate: string) {
  return z.object({
    effectiveFrom: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'choose the date the new terms take effect')
      .refine((day) => day > bankDate, `choose a date after the bank's date (${bankDate}): a change never rewrites the past`),
    monthlyFee: dollars('monthly fee'),
    waiverMinDailyBalance: dollars('minimum daily balance', { optional: true }),
    waiverMonthlyDeposits: dollars('monthly deposits', { optional: true }),
    openingDeposit: dollars('opening deposit'),
    tiers: z
      .array(z.object({ from: dollars('balance the tier starts at'), rate }))
      .min(1, 'give at least one interest tier')
      .max(maxInterestTiers, `give at most ${maxInterestTiers} interest tiers`)
      .superRefine((tiers, context) => {
        const starts = tiers.map((tier) => centsOfDollars(tier.from));
        if (starts[0] !== null && starts[0] !== undefined && starts[0] !== 0)
          context.addIssue({ code: 'custom', path: [0, 'from'], message: 'the first tier starts at a balance of $0' });
        starts.forEach((start, index) => {
          const before = starts[index - 1];
          if (index > 0 && start !== null && before !== null && before !== undefined && start <= before)
            context.addIssue({ code: 'custom', path: [index, 'from'], message: 'each tier starts at a higher balance than the one before' });
        });
      }),
    reason: decisionReasonField,
  });
}

export type TermsForm = z.input<ReturnType<typeof termsFormSchema>>;

const centsOrZero = (text: string) => centsOfDollars(text) ?? 0;
const centsOrNull = (text: string) => (text.trim() === '' ? null : centsOfDollars(text));
const dollarsText = (cents: number | null) => (cents === null ? '' : `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
const percentText = (bps: number) => `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;

/** The request body from the checked form. */
export function changeOf(form: TermsForm): ProductTermsChange {
  return {
    effectiveFrom: form.effectiveFrom,
    monthlyFeeCents: centsOrZero(form.monthlyFee),
    waiverMinDailyBalanceCents: centsOrNull(form.waiverMinDailyBalance),
    waiverMonthlyDepositsCents: centsOrNull(form.waiverMonthlyDeposits),
    openingDepositCents: centsOrZero(form.openingDeposit),
    tiers: form.tiers.map((tier) => ({ fromCents: centsOrZero(tier.from), rateBps: bpsOfPercent(tier.rate) ?? 0 })),
    reason: form.reason,
  };
}

/** The form filled with terms to start from (those in force, or the latest scheduled). */
export function formOf(terms: ProductTerms | undefined): TermsForm {
  return {
    effectiveFrom: '',
    monthlyFee: dollarsText(terms?.monthlyFeeCents ?? 0),
    waiverMinDailyBalance: dollarsText(terms?.waiverMinDailyBalanceCents ?? null),
    waiverMonthlyDeposits: dollarsText(terms?.waiverMonthlyDepositsCents ?? null),
    openingDeposit: dollarsText(terms?.openingDepositCents ?? 0),
    tiers: (terms?.tiers ?? [{ fromCents: 0, rateBps: 0 }]).map((tier) => ({ from: dollarsText(tier.fromCents), rate: percentText(tier.rateBps) })),
    reason: '',
  };
}
