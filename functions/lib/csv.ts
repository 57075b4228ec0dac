/**
 * CSV for the owner's exports (RFC 4180: comma separated, CRLF line ends, a cell quoted when it
 * holds a comma, a quote or a line break, its quotes doubled).
 *
 * A text cell that starts with = + - @ (or a tab or carriage return) is one a spreadsheet would run
 * as a formula: a customer who types `=HYPERLINK(...)` as their name must not get code run on the
 * owner's machine, so such a cell gets a leading apostrophe and is shown as the text it is.
 * Numbers are written as they are (a number is never a formula).
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header row, then one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Cents as a plain amount with two decimals (1234 → 12.34), as accounting tools read it. */
export const amount = (cents: number | null | undefined) => (typeof cents === 'number' ? (cents / 100).toFixed(2) : '');
