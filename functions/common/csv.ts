/**
 * CSV for the owner's exports (RFC 4180: comma separated, CRLF line ends, a cell quoted when it
 * holds a comma, a quote or a line break, or one of the other separators below, its quotes doubled).
 *
 * A text cell in which = + - @ (or a tab or carriage return) starts a piece a spreadsheet might
 * read as a cell is one it would run as a formula: a customer who types `=HYPERLINK(...)` as their
 * name must not get code run on the owner's machine. That is the cell's start, and also any place
 * after a character some spreadsheet splits on (`,` `;` tab `|`, a line break), spaces allowed
 * between, since a file opened with another separator cuts `a;=1+1` into `a` and `=1+1`. Each such
 * character gets an apostrophe before it, so every piece shows as the text it is, and a cell
 * holding any of those separators is quoted, so readers that honour quotes keep it whole. Numbers
 * are written as they are (a number is never a formula).
 */
export type CsvCell = string | number | boolean | null | undefined;

// A lookbehind, so a tab taken as a formula start still counts as the separator before the next one.
const FORMULA_AT_A_CELL_START = /(?<=^|[,;\t|\r\n])( *)([=+\-@\t\r])/g;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = value.replace(FORMULA_AT_A_CELL_START, "$1'$2");
  return /[",;\t|\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header row, then one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Cents as a plain amount with two decimals (1234 → 12.34), as accounting tools read it. */
export const amount = (cents: number | null | undefined) => (typeof cents === 'number' ? (cents / 100).toFixed(2) : '');
