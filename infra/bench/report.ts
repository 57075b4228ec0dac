/**
 * Markdown tables padded to column width: readable as printed in a terminal, and pasteable
 * as-is into the bench's README.
 */
export type Align = 'left' | 'right';

export interface Column {
  title: string;
  align?: Align;
}

export function markdownTable(columns: Column[], rows: string[][]): string {
  const widths = columns.map((c, i) => Math.max(3, c.title.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (text: string, i: number) =>
    columns[i]!.align === 'right' ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  // The rule spans each cell's padding too; a trailing colon right-aligns the column.
  const rule = columns.map((c, i) => (c.align === 'right' ? `${'-'.repeat(widths[i]! + 1)}:` : '-'.repeat(widths[i]! + 2)));
  return [line(columns.map((c) => c.title)), `|${rule.join('|')}|`, ...rows.map(line)].join('\n');
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const verdict = (pass: boolean) => (pass ? 'PASS' : '**OVER**');

/**
 * `text` with what lies between the two marker comments replaced by `content` (the markers stay),
 * so the bench can rewrite its part of its README and leave the prose around it alone.
 */
export function replaceBetweenMarkers(text: string, marker: string, content: string): string {
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`No "${start}" … "${end}" pair to write between`);
  return `${text.slice(0, from + start.length)}\n${content.trim()}\n${text.slice(to)}`;
}
