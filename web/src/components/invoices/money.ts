/**
 * How invoices write money and time. Every amount in a view is integer cents (shared/schemas/invoice.ts),
 * so this is the one place cents become dollars on the invoice screens.
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Integer cents as dollars with 2 decimals (spec section 9): 15750 -> "$157.50". */
export function formatMoney(cents: number): string {
  if (!Number.isFinite(cents)) return '—';
  return usd.format(cents / 100);
}

/** An hourly rate in cents: 4500 -> "$45.00/hr". */
export function formatHourlyRate(cents: number): string {
  return Number.isFinite(cents) ? `${formatMoney(cents)}/hr` : '—';
}

/** Labour hours with 1 decimal (spec section 9): 2.25 -> "2.3", 3 -> "3.0". */
export function formatHours(hours: number): string {
  return Number.isFinite(hours) ? hours.toFixed(1) : '—';
}

/** "2.5 hours", "1.0 hour". */
export function hoursPhrase(hours: number): string {
  const text = formatHours(hours);
  return `${text} ${text === '1.0' ? 'hour' : 'hours'}`;
}
