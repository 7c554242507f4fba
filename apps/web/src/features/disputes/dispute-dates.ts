/**
 * The bank's dates (YYYY-MM-DD, no time of day) as the disputes screens word them: `Fri 20 Mar 2026`.
 * Read in UTC so that no visitor's time zone moves a deadline to the day before.
 */
const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export function formatBankDate(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  return dayFormat.format(date).replace(',', '');
}
