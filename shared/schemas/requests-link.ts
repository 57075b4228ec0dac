import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { email } from './fields';
import { serviceRequestView } from './views/job';

/**
 * "Find my requests": POST /api/customer/requests-link asks for a link mailed to the address;
 * POST /api/customer/requests-link/preview says what opening it would do, spending nothing;
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

/**
 * One of the address's requests as the confirmation shows it before the link is spent: enough to
 * recognise it (what, where by its street line, when), nothing that reaches a person (no phone, no
 * name, no other address).
 */
export const linkedRequest = z.strictObject({
  service: z.string(),
  number: z.string(),
  /** The first line of the service address (the street, or the town when that is all it names). */
  place: z.string(),
  createdAt: z.string(),
});
export type LinkedRequest = z.infer<typeof linkedRequest>;

/**
 * POST /api/customer/requests-link/preview: what opening the link would do, spending nothing.
 * `askedHere`: this browser asked for the link, so opening it lists these under Your Requests here;
 * otherwise it only shows them once, with their tracking links, and this browser stays as it is.
 */
export const requestsLinkPreview = z.strictObject({
  email: z.string(),
  askedHere: z.boolean(),
  requests: z.array(linkedRequest),
});
export type RequestsLinkPreview = z.infer<typeof requestsLinkPreview>;

/**
 * What opening the link did. `here`: this browser asked for it, and is now the address's identity,
 * with what it had before and everything gathered. Otherwise this browser stays as it was (its
 * cookie, its own requests) and gets each of the address's requests to follow by its tracking link.
 */
export const requestsLinkOpened = z.union([
  z.strictObject({
    here: z.literal(true),
    gathered: z.strictObject({ requests: z.number(), bookings: z.number(), invoices: z.number() }),
    requests: z.array(serviceRequestView),
  }),
  z.strictObject({
    here: z.literal(false),
    requests: z.array(z.strictObject({ ...linkedRequest.shape, id: z.string() })),
  }),
]);
export type RequestsLinkOpened = z.infer<typeof requestsLinkOpened>;
