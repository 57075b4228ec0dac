/**
 * The town of a free-text address, the most of it shown to anyone who may know roughly where a job
 * is but not where exactly: the public by-id view of a request and a pro deciding on an offer.
 * Addresses are written 'number road, city, state' (the request form's suggestions are), so the town
 * is the first part after the street that holds no digit (a unit, a postcode or a house number
 * does); an address of one part names no town, and nothing is guessed from it.
 */
const UNIT = /^(apt|apartment|unit|suite|ste|flat|floor|fl|room|#)\b/i;

export function townOf(address: string): string | null {
  const parts = address
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const town = parts.slice(1).find((part) => !/\d/.test(part) && !UNIT.test(part));
  return town ? town.slice(0, 100) : null;
}

/** " in Springfield", or nothing: where a job is, said to a pro who does not hold it. */
export function inTownOf(address: string): string {
  const town = townOf(address);
  return town ? ` in ${town}` : '';
}
