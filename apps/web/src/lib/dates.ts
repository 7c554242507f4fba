/**
 * Dates arrive from the API as ISO 8601 strings in UTC. Screens show them in the visitor's own
 * time zone, in English, as the rest of the product.
 */
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function toDate(value: string | Date): Date {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${String(value)}`);
  return date;
}

/** `Nov 21, 2026` */
export function formatDate(value: string | Date): string {
  return dateFormat.format(toDate(value));
}

/** `Nov 21, 2026, 6:09 AM` */
export function formatDateTime(value: string | Date): string {
  return dateTimeFormat.format(toDate(value));
}

/** The `datetime` attribute of a `<time>` element: the instant in ISO form. */
export function machineDateTime(value: string | Date): string {
  return toDate(value).toISOString();
}

/** A countdown as minutes and seconds, both two digits: 350 -> `05:50`. */
export function formatCountdown(totalSeconds: number): string {
  if (!Number.isInteger(totalSeconds) || totalSeconds < 0) throw new RangeError(`not a count of seconds: ${totalSeconds}`);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
