/**
 * How invoices write money and time. Every amount in a view is integer cents (shared/schemas/invoice.ts),
 * so this is the one place cents become dollars on the invoice screens.
 */

// Made on first use, not when the module loads: the first currency formatter costs tens of ms of
// locale data, which the screens importing this (the home page's request list among them) pay only
// once they have an amount to show.
let usd: Intl.NumberFormat | undefined;

/** Integer cents as dollars with 2 decimals (spec section 9): 15750 -> "$157.50". */
export function formatMoney(cents: number): string {
  if (!Number.isFinite(cents)) return '—';
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
