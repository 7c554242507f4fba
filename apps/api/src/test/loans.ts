/** A loan application the contract accepts: $1,200 over 12 months on a $60,000 income. */
export const validApplication = {
  maritalStatus: 'married',
  occupation: 'Nurse',
  address: '1 Demo Street, Washington',
  amountCents: 120_000,
  annualIncomeCents: 6_000_000,
  purpose: 'A used car',
  durationMonths: 12,
};
