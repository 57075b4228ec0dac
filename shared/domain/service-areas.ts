/**
 * The area a pro serves, as a customer reads it on their card: the town and state of the work
 * address they applied with ("San Francisco, CA"), never the street or number, which stay private.
 */
export function serviceAreaOf(address: string): string | null {
  const parts = address
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < 2) return null;
  const place = parts
    .slice(1)
    // A postcode alone, or after the state ("CA 94103"), is more than the card needs.
    .map((part) => part.replace(/\s*\b\d{4,}(-\d{3,4})?\b\s*/g, ' ').trim())
    .filter((part) => part && !/^(usa|us|united states( of america)?)$/i.test(part));
  return place.length ? place.slice(0, 2).join(', ') : null;
}

/** How many times a customer may change their saved service address in a day. */
export const SERVICE_ADDRESS_CHANGES_PER_DAY = 3;
