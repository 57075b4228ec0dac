const units = ['Bytes', 'KB', 'MB', 'GB'] as const;

/**
 * A file's size as people read it (Bytes, KB, MB, GB), in steps of 1024 with at most two
 * decimals and no trailing zeros: 0 Bytes, 512 Bytes, 1.5 KB, 2.34 MB. GB is the largest unit:
 * nothing near a terabyte is ever uploaded, and "1024 GB" still reads right.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const index = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** index;
  // Rounding can carry up (1023.999 KB -> "1024 KB"): show the next unit instead.
  const rounded = Number(value.toFixed(2));
  if (rounded >= 1024 && index < units.length - 1) return `1 ${units[index + 1]}`;
  return `${index === 0 ? Math.round(value) : rounded} ${units[index]}`;
}
