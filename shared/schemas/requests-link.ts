import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { email } from './fields';
import { serviceRequestView } from './views/job';

/**
 * "Find my requests": POST /api/customer/requests-link asks for a link mailed to the address;
 * POST /api/customer/requests-link/open spends it in the browser that opened it.
 */
export const requestsLinkSchema = strictBody({
  // A lookup, not an address we are told to write to: any well-formed address is asked about.
  email: email('Enter the email address you used for your requests'),
});
export type RequestsLinkInput = z.infer<typeof requestsLinkSchema>;

/** The secret from the link's fragment: 256 random bits, base64url. */
export const requestsLinkOpenSchema = strictBody({
  token: z.string({ error: 'This link is not complete. Open it from the mail again, or send a new link.' }).check(
    z.regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete. Open it from the mail again, or send a new link.'),
  ),
});
export type RequestsLinkOpenInput = z.infer<typeof requestsLinkOpenSchema>;

/** The same answer whether or not requests were made with the address: it tells nobody which addresses we know. */
export const REQUESTS_LINK_SENT = "If we have requests made with that address, we've sent a link. It works for 15 minutes.";

/** A link used already or past its 15 minutes (or one that never was). */
export const REQUESTS_LINK_GONE = 'This link has been used or has expired. Links work once, for 15 minutes: send a new one.';

/** What opening the link gathered to this browser, and every request it now has. */
export const requestsLinkOpened = z.strictObject({
  gathered: z.strictObject({ requests: z.number(), bookings: z.number(), invoices: z.number() }),
  /**
   * This browser had requests of its own but did not ask for the link (it was opened elsewhere than
   * where it was asked for): those stay apart, under the identity it had.
   */
  keptApart: z.boolean(),
  requests: z.array(serviceRequestView),
});
export type RequestsLinkOpened = z.infer<typeof requestsLinkOpened>;
