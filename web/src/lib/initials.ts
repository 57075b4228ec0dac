/**
 * The avatar letters of a person without a photo: the first and last names' initials, upper-cased,
 * or "?" for a blank name. Letters are taken whole (Array.from), so a name starting with a character
 * outside the basic plane keeps it rather than half of it.
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const letters = words.length === 1 ? [words[0]!] : [words[0]!, words[words.length - 1]!];
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join('');
}
