/** Cents as the mails write them: dollars with two decimals ($1234.50). */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
