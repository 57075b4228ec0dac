/**
 * How every screen writes a date or a time, so one instant reads the same on each of them. A
 * formatter is made on first use of a style and locale and kept: building one costs locale data,
 * paid once per visit rather than on every render.
 */

/**
 * 'date-time' "Mar 4, 2025, 3:07 PM"; 'date' "Mar 4, 2025"; 'time' "3:07 PM"; 'time-seconds'
 * "3:07:05 PM", for a reading that changes by the second (a live location).
 */
export type DateTimeStyle = 'date-time' | 'date' | 'time' | 'time-seconds';

const styleOptions: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  'date-time': { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  'time-seconds': { timeStyle: 'medium' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(style: DateTimeStyle, locale: string | undefined, timeZone?: string): Intl.DateTimeFormat {
  const key = `${style}|${locale ?? ''}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...styleOptions[style], timeZone });
    formats.set(key, format);
  }
  return format;
}

/**
 * An instant (an ISO string, epoch milliseconds or a Date) in the reader's locale, or the one given.
 * Null when there is none or it is unreadable: each screen says what stands in for it ("—", nothing).
 */
export function formatDateTime(value: string | number | Date | null | undefined, style: DateTimeStyle = 'date-time', locale?: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return formatOf(style, locale).format(date);
}

/**
 * A calendar day (YYYY-MM-DD, as an expiry date is stored) in the reader's words, or the text as
 * given when it is not one. Formatted in UTC: the day read as local midnight would show the day
 * before to everyone west of Greenwich.
 */
export function formatCalendarDate(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time)) return day;
  return formatOf('date', undefined, 'UTC').format(time);
}
