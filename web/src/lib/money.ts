/**
 * How the app writes money and labour hours. Every amount the API sends is integer cents
 * (shared/schemas/invoice.ts), so this is the one place cents become a currency amount.
 */

/** The currency and the locale to write it in; US dollars in en-US unless the configuration says otherwise (lib/config.ts). */
export interface MoneyOptions {
  currency?: string;
  locale?: string;
  /** Drop the decimals of a whole amount ("$45"), as rates are usually quoted; "$45.50" keeps them. */
  whole?: boolean;
}

// Made on first use, not when the module loads: the first currency formatter costs tens of ms of
// locale data, which the screens importing this (the home page's request list among them) pay only
// once they have an amount to show. One per currency, locale and number of decimals.
const formats = new Map<string, Intl.NumberFormat>();

/** Integer cents as a currency amount with 2 decimals: 15750 -> "$157.50"; a dash for an unreadable amount. */
export function formatMoney(cents: number, { currency = 'USD', locale = 'en-US', whole = false }: MoneyOptions = {}): string {
  if (!Number.isFinite(cents)) return '—';
  const digits = whole && cents % 100 === 0 ? 0 : 2;
  const key = `${locale}|${currency}|${digits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format.format(cents / 100);
}

/** The currency's own sign, for a label beside an amount typed in: "$", "€", else the code. */
export function currencySign({ currency = 'USD', locale = 'en-US' }: Omit<MoneyOptions, 'whole'> = {}): string {
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(0);
    return parts.find((part) => part.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/** An hourly rate in cents: 4500 -> "$45.00/hr" (or "$45/hr" with `whole`). */
export function formatHourlyRate(cents: number, options: MoneyOptions = {}): string {
  return Number.isFinite(cents) ? `${formatMoney(cents, options)}/hr` : '—';
}

/**
 * Labour hours with 1 decimal: 2.25 -> "2.3", 3 -> "3.0". Rounded at the tenth first: toFixed alone
 * rounds the binary value, so 0.15 would read "0.1".
 */
export function formatHours(hours: number): string {
  return Number.isFinite(hours) ? (Math.round(hours * 10) / 10).toFixed(1) : '—';
}

/** "2.5 hours", "1.0 hour". */
export function hoursPhrase(hours: number): string {
  const text = formatHours(hours);
  return `${text} ${text === '1.0' ? 'hour' : 'hours'}`;
}
