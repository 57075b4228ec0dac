/** "plumbing" -> "Plumbing", "en_route" -> "En route", "handyman" -> "General Handyman". */
export function label(value: string): string {
  if (value === 'handyman') return 'General Handyman';
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
